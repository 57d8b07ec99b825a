// A note's neighbourhood as a small picture: the note in the middle, the notes it links to, the
// notes linking to it and the related ones around it, each a link to its page. Inline SVG, so it
// needs no script and no file of its own.
import Foundation
import Notes

struct NeighbourhoodGraph {
    enum Kind: String { case linksTo = "links to", linkedFrom = "links here", related = "related" }

    struct Neighbour {
        var id: NoteID
        var title: String
        var kind: Kind
    }

    var title: String
    var neighbours: [Neighbour]

    /// At most this many around the note: past it the picture is a blur, and the lists say it all.
    static let maximum = 12

    /// Each note once, the first kind it comes with (a link before a backlink before related).
    init(title: String, neighbours: [Neighbour]) {
        self.title = title
        var seen = Set<NoteID>()
        self.neighbours = Array(neighbours.filter { seen.insert($0.id).inserted }.prefix(Self.maximum))
    }

    static func shortened(_ text: String) -> String { text.count > 28 ? String(text.prefix(27)) + "…" : text }

    var svg: String {
        guard !neighbours.isEmpty else { return "" }
        let width = 640.0, height = 360.0, centre = (x: width / 2, y: height / 2)
        var lines = "", nodes = ""
        for (index, neighbour) in neighbours.enumerated() {
            let angle = 2 * Double.pi * Double(index) / Double(neighbours.count) - Double.pi / 2
            let x = centre.x + 250 * cos(angle), y = centre.y + 140 * sin(angle)
            let kind = neighbour.kind.rawValue.replacingOccurrences(of: " ", with: "-")
            lines += "<line class=\"\(kind)\" x1=\"\(Int(centre.x))\" y1=\"\(Int(centre.y))\" x2=\"\(Int(x))\" y2=\"\(Int(y))\"/>"
            nodes += "<a href=\"/note/\(neighbour.id)\"><circle class=\"\(kind)\" cx=\"\(Int(x))\" cy=\"\(Int(y))\" r=\"6\"/>"
                + "<text x=\"\(Int(x))\" y=\"\(Int(y) + 20)\" text-anchor=\"middle\">\(HTML.escape(Self.shortened(neighbour.title)))</text>"
                + "<title>\(HTML.escape(neighbour.title)) (\(neighbour.kind.rawValue))</title></a>"
        }
        let me = "<circle class=\"self\" cx=\"\(Int(centre.x))\" cy=\"\(Int(centre.y))\" r=\"9\"/>"
            + "<text class=\"self\" x=\"\(Int(centre.x))\" y=\"\(Int(centre.y) - 16)\" text-anchor=\"middle\">\(HTML.escape(Self.shortened(title)))</text>"
        let legend = [Kind.linksTo, .linkedFrom, .related].enumerated().map { index, kind in
            let name = kind.rawValue.replacingOccurrences(of: " ", with: "-")
            return "<line class=\"\(name)\" x1=\"10\" y1=\"\(14 + index * 16)\" x2=\"30\" y2=\"\(14 + index * 16)\"/><text x=\"36\" y=\"\(18 + index * 16)\">\(kind.rawValue)</text>"
        }.joined()
        return "<svg class=\"graph\" viewBox=\"0 0 \(Int(width)) \(Int(height))\" role=\"img\" aria-label=\"Notes around \(HTML.escape(title))\">"
            + lines + legend + me + nodes + "</svg>"
    }
}
