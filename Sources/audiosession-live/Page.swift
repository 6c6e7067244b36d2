/// The live page: the device and its apps from `GET /state`, the timeline from `GET /history`,
/// then every new event pushed over `GET /events` (server-sent events). Each event shows how
/// long after it happened (the daemon's timestamp) the page showed it.
enum Page {
    static let html = """
        <!DOCTYPE html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <title>audiosession live</title>
        <style>
          body { font-family: "DejaVu Sans", Helvetica, Arial, sans-serif; margin: 16px; color: #212121; }
          h1 { font-size: 20px; margin: 0 0 8px 0; }
          h2 { font-size: 15px; margin: 18px 0 6px 0; }
          table { border-collapse: collapse; font-size: 13px; }
          th, td { border-bottom: 1px solid #e0e0e0; padding: 4px 10px; text-align: left; }
          th { background: #f0f4f8; }
          .active { color: #2e7d32; font-weight: bold; }
          .interrupted { color: #c62828; font-weight: bold; }
          .ducked { color: #ef6c00; }
          .muted { color: #616161; }
          #status { font-size: 12px; color: #616161; }
          #timeline { font-family: "DejaVu Sans Mono", monospace; font-size: 12px; max-height: 360px; overflow-y: auto;
                      border: 1px solid #e0e0e0; padding: 6px; }
          #timeline div { padding: 1px 0; }
          .latency { color: #1565c0; }
          .layout { display: flex; gap: 32px; flex-wrap: wrap; }
        </style>
        </head>
        <body>
        <h1>audiosession live</h1>
        <div id="status">connecting…</div>
        <div class="layout">
          <div>
            <h2>Device</h2>
            <table id="device"></table>
            <h2>Other audio</h2>
            <table id="other"></table>
          </div>
          <div>
            <h2>Apps</h2>
            <table id="apps"></table>
          </div>
        </div>
        <h2>Timeline <span id="count"></span></h2>
        <div id="timeline"></div>
        <script>
        const text = (value) => document.createTextNode(value === null || value === undefined ? "–" : String(value));
        function row(table, cells, header) {
          const tr = document.createElement("tr");
          for (const cell of cells) {
            const td = document.createElement(header ? "th" : "td");
            if (cell && cell.node) { td.appendChild(cell.node); } else { td.appendChild(text(cell)); }
            tr.appendChild(td);
          }
          table.appendChild(tr);
        }
        function span(value, className) {
          const s = document.createElement("span");
          s.className = className;
          s.textContent = value;
          return { node: s };
        }
        function gain(value) {
          if (value === 0) return span("muted", "muted");
          if (value < 1) return span("ducked " + value, "ducked");
          return "1";
        }
        async function refresh() {
          const state = await (await fetch("/state")).json();
          const device = document.getElementById("device");
          device.replaceChildren();
          if (state.daemonGoneSince !== null)
            row(device, ["daemon", span("GONE since " + new Date(state.daemonGoneSince).toISOString().slice(11, 23) + " UTC: the daemon went away; its last state is shown until it is back", "muted")]);
          row(device, ["profile", state.profile]);
          if (state.mediaServicesLostSince !== null)
            row(device, ["media services", span("LOST since " + new Date(state.mediaServicesLostSince).toISOString().slice(11, 23) + " UTC (the sound server is gone)", "muted")]);
          row(device, ["routing owner", state.routingOwner ?? (state.route ? "(an app of another user)" : "-")]);
          row(device, ["route", state.route]);
          row(device, ["outputs", state.outputs.map(p => p.name).join(", ")]);
          row(device, ["inputs", state.inputs.map(p => p.name).join(", ")]);
          row(device, ["system sessions", state.systemSessions.join(", ") || "none"]);
          row(device, ["volume", state.outputVolume]);
          row(device, ["locked", state.locked]);
          const other = document.getElementById("other");
          other.replaceChildren();
          row(other, ["id", "name", "role", "gain"], true);
          for (const o of state.otherAudio) row(other, [o.id, o.name, o.role, o.muted ? span("muted", "muted") : gain(o.gain)]);
          const apps = document.getElementById("apps");
          apps.replaceChildren();
          row(apps, ["app", "pid", "category", "mode", "options", "state", "gain", "route"], true);
          for (const a of state.apps) {
            const st = a.interrupted ? span("interrupted", "interrupted") : (a.active ? span("active", "active") : "inactive");
            const what = a.kind === "call"
              ? " (call: " + a.player + (a.streams && a.streams.length ? ", " + a.streams.join(", ") : "") + ")"
              : a.player ? " (player: " + a.player + ")" : (a.kind === "stream" ? " (stream)" : "");
            const name = a.app + what + (a.policy ? " [policy " + a.policy + "]" : "");
            row(apps, [name, a.pid, a.category, a.mode, a.options, st, gain(a.gain), a.route]);
          }
        }
        let shown = 0;
        function show(event, live) {
          const line = document.createElement("div");
          const time = new Date(event.time).toISOString().substring(11, 23);
          let latency = "";
          if (live) {
            latency = " (shown " + Math.max(0, Date.now() - event.time) + " ms after it happened)";
          }
          line.appendChild(text(time + "  #" + event.sequence + "  " + event.app + ": " + event.text));
          if (latency) { const l = document.createElement("span"); l.className = "latency"; l.textContent = latency; line.appendChild(l); }
          const timeline = document.getElementById("timeline");
          timeline.insertBefore(line, timeline.firstChild);
          shown += 1;
          document.getElementById("count").textContent = "(" + shown + " events)";
        }
        async function start() {
          const history = await (await fetch("/history")).json();
          for (const event of history) show(event, false);
          await refresh();
          // ?close-after=SECONDS: the pushed events stop after that long (for headless browsers).
          const closeAfter = new URLSearchParams(location.search).get("close-after");
          // ?after=: the events that came between reading the history and this subscription.
          const after = history.length ? history[history.length - 1].sequence : 0;
          const source = new EventSource("/events?after=" + after + (closeAfter ? "&for=" + closeAfter : ""));
          source.onopen = () => { document.getElementById("status").textContent = "live: connected to the daemon"; };
          source.onerror = () => {
            document.getElementById("status").textContent = closeAfter ? "live events ended (close-after)" : "disconnected; retrying…";
            if (closeAfter) source.close();
          };
          source.onmessage = (message) => { show(JSON.parse(message.data), true); refresh(); };
          // The daemon went away (its last state stays shown) or came back; the live view stopped.
          source.addEventListener("daemon", (message) => {
            document.getElementById("status").textContent = message.data === "gone"
              ? "the daemon went away: showing its last state until it is back"
              : "live: connected to the daemon (it came back)";
            refresh();
          });
          source.addEventListener("stopped", () => {
            document.getElementById("status").textContent = "the live view stopped";
            source.close();
          });
        }
        start();
        </script>
        </body>
        </html>
        """
}
