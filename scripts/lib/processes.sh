# Sourced by the test command's scripts: start background work in process groups of its own and
# stop whole groups, so nothing a script started outlives it (a pipeline's first stage included).
#   start CMD ARGS... [redirections]   runs CMD in a new session; its pid (= its group) is in $started_pid
#   stop_started                       SIGTERM to each group started, the last first; SIGKILL after 2 s
#   stop_at_exit DIR                   at the script's exit: stop_started, remove DIR, keep the script's status
#   leftovers                          prints every process of this checkout still running (but us)
started=()
start() {
    setsid "$@" &
    started_pid=$!
    started+=("$started_pid")
}

stop_started() {
    # The last started first, each given 2 s: a client (a daemon undoing its changes, OA6) stops
    # while the server it talks to still answers. A group that needs SIGKILL is named. Returns 0
    # whatever it finds, so a script's EXIT trap keeps the script's own status.
    local i pid cmd
    for ((i = ${#started[@]} - 1; i >= 0; i--)); do
        pid=${started[i]}
        kill -0 -- "-$pid" 2> /dev/null || continue
        cmd=$(tr '\0' ' ' 2> /dev/null < "/proc/$pid/cmdline") || cmd="(pid $pid)"
        kill -TERM -- "-$pid" 2> /dev/null || true
        for _ in $(seq 1 100); do
            kill -0 -- "-$pid" 2> /dev/null || break
            sleep 0.02
        done
        if kill -0 -- "-$pid" 2> /dev/null; then
            echo "stop_started: ${cmd:0:120}… (group $pid) outlived SIGTERM by 2 s: SIGKILL" >&2
            kill -KILL -- "-$pid" 2> /dev/null || true
        fi
    done
    started=()
    return 0
}

stop_at_exit() {
    # The teardown reports, it does not decide: the script's status is its checks'.
    trap "status=\$?; stop_started; rm -rf '$1' || true; exit \$status" EXIT
}

# A process of this checkout: its program is one of the checkout's builds, or it runs in the
# checkout's directory. This shell, its ancestors and its children (the check itself) are not.
leftovers() {
    local root=$PWD ancestors=" " pid=$$ dir exe cwd ppid rest
    while [ "$pid" -gt 1 ]; do
        ancestors+="$pid "
        read -r _ _ _ pid _ < "/proc/$pid/stat"
    done
    for dir in /proc/[0-9]*; do
        pid=${dir#/proc/}
        case "$ancestors" in *" $pid "*) continue ;; esac
        read -r rest 2> /dev/null < "$dir/stat" || continue  # (gone meanwhile; 2> first: it covers the <)
        rest=${rest##*) }  # past "pid (comm) ": state ppid …
        read -r _ ppid _ <<< "$rest"
        [ "$ppid" = $$ ] && continue
        exe=$(readlink "$dir/exe" 2> /dev/null) || continue
        cwd=$(readlink "$dir/cwd" 2> /dev/null) || continue
        if [[ $exe == "$root"/* || $cwd == "$root" || $cwd == "$root"/* ]]; then
            echo "$pid $(tr '\0' ' ' 2> /dev/null < "$dir/cmdline")"
        fi
    done
}
