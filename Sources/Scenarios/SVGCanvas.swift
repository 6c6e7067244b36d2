/// The few SVG shapes a timeline picture needs, written as text with every string escaped.
/// Shapes with a tooltip carry it as an SVG `<title>` (shown on hover).
struct Canvas {
    private(set) var text = ""

    mutating func open(width: Int, height: Int) {
        text += """
            <?xml version="1.0" encoding="UTF-8"?>
            <svg xmlns="http://www.w3.org/2000/svg" width="\(width)" height="\(height)" viewBox="0 0 \(width) \(height)" \
            font-family="DejaVu Sans, Helvetica, Arial, sans-serif">
            <rect x="0" y="0" width="\(width)" height="\(height)" fill="#ffffff"/>

            """
    }

    mutating func close() { text += "</svg>\n" }

    mutating func text(x: Int, y: Int, _ content: String, size: Int, weight: String, fill: String) {
        text +=
            "<text x=\"\(x)\" y=\"\(y)\" font-size=\"\(size)\" font-weight=\"\(weight)\" fill=\"\(fill)\">\(Self.escape(content))</text>\n"
    }

    mutating func rotatedText(x: Int, y: Int, _ content: String, size: Int, fill: String, tooltip: String?) {
        text += "<text x=\"\(x)\" y=\"\(y)\" font-size=\"\(size)\" fill=\"\(fill)\" transform=\"rotate(-60 \(x) \(y))\">"
        text += Self.title(tooltip) + Self.escape(content) + "</text>\n"
    }

    mutating func rect(x: Int, y: Int, width: Int, height: Int, fill: String, tooltip: String?) {
        shape("rect x=\"\(x)\" y=\"\(y)\" width=\"\(width)\" height=\"\(height)\" fill=\"\(fill)\"", tooltip)
    }

    mutating func outline(x: Int, y: Int, width: Int, height: Int, tooltip: String?) {
        shape(
            "rect x=\"\(x)\" y=\"\(y)\" width=\"\(width)\" height=\"\(height)\" fill=\"none\" stroke=\"#d50000\" stroke-width=\"2\"",
            tooltip)
    }

    mutating func line(x1: Int, y1: Int, x2: Int, y2: Int, stroke: String) {
        shape("line x1=\"\(x1)\" y1=\"\(y1)\" x2=\"\(x2)\" y2=\"\(y2)\" stroke=\"\(stroke)\"", nil)
    }

    mutating func circle(cx: Int, cy: Int, r: Int, fill: String, tooltip: String?) {
        shape("circle cx=\"\(cx)\" cy=\"\(cy)\" r=\"\(r)\" fill=\"\(fill)\"", tooltip)
    }

    mutating func triangle(x: Int, y: Int, pointingDown: Bool, fill: String, tooltip: String?) {
        let points =
            pointingDown
            ? "\(x - 6),\(y - 5) \(x + 6),\(y - 5) \(x),\(y + 5)" : "\(x - 6),\(y + 5) \(x + 6),\(y + 5) \(x),\(y - 5)"
        shape("polygon points=\"\(points)\" fill=\"\(fill)\"", tooltip)
    }

    mutating func diamond(x: Int, y: Int, fill: String, tooltip: String?) {
        shape("polygon points=\"\(x),\(y - 6) \(x + 6),\(y) \(x),\(y + 6) \(x - 6),\(y)\" fill=\"\(fill)\"", tooltip)
    }

    private mutating func shape(_ element: String, _ tooltip: String?) {
        guard let tooltip else {
            text += "<\(element)/>\n"
            return
        }
        let name = element.prefix { $0 != " " }
        text += "<\(element)>\(Self.title(tooltip))</\(name)>\n"
    }

    private static func title(_ tooltip: String?) -> String {
        tooltip.map { "<title>\(escape($0))</title>" } ?? ""
    }

    static func escape(_ text: String) -> String {
        var escaped = ""
        for character in text {
            switch character {
            case "&": escaped += "&amp;"
            case "<": escaped += "&lt;"
            case ">": escaped += "&gt;"
            case "\"": escaped += "&quot;"
            default: escaped.append(character)
            }
        }
        return escaped
    }
}
