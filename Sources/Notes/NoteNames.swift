// The names a link may use for a note, and which note a name means when several answer to it.
// `@_spi(_Unicode)` gives the standard library's canonical decomposition (NFD), which folding
// accents needs; Foundation would do it too but costs every command its start-up time.
@_spi(_Unicode) import Swift

public enum NoteNames {
    /// A name as links compare it: lowercase, without accents, blanks folded to one space, so
    /// `[[cafe  menu]]` finds "Café Menu".
    public static func fold(_ name: String) -> String {
        // Most names are ASCII: lowercase and fold blanks by byte.
        if name.utf8.allSatisfy({ $0 < 0x80 }) {
            var bytes: [UInt8] = []
            bytes.reserveCapacity(name.utf8.count)
            var pendingSpace = false
            for byte in name.utf8 {
                if byte == 0x20 || (byte >= 0x09 && byte <= 0x0D) {
                    pendingSpace = !bytes.isEmpty
                    continue
                }
                if pendingSpace {
                    bytes.append(0x20)
                    pendingSpace = false
                }
                bytes.append(byte >= 0x41 && byte <= 0x5A ? byte + 0x20 : byte)
            }
            return String(decoding: bytes, as: UTF8.self)
        }
        var scalars = String.UnicodeScalarView()
        var pendingSpace = false
        for scalar in name.lowercased()._nfd {
            if scalar.properties.generalCategory == .nonspacingMark { continue }
            if scalar.properties.isWhitespace {
                pendingSpace = !scalars.isEmpty
                continue
            }
            if pendingSpace {
                scalars.append(" ")
                pendingSpace = false
            }
            scalars.append(scalar)
        }
        return String(scalars)
    }

    /// The folded names a note answers to: its title, its aliases, and its file's path with
    /// every leading folder dropped in turn (`help/sync/troubleshoot`, `sync/troubleshoot`,
    /// `troubleshoot`), since a link may name a file with as much of its path as it needs.
    public static func keys(title: String, aliases: [String], path: String?) -> [String] {
        var keys = [fold(title)] + aliases.map(fold)
        if let path {
            var components = path.split(separator: "/")[...]
            while !components.isEmpty {
                keys.append(fold(components.joined(separator: "/")))
                components = components.dropFirst()
            }
        }
        var seen = Set<String>()
        return keys.filter { !$0.isEmpty && seen.insert($0).inserted }
    }

    /// The folder part of a path ("" for a file at the top, or for a note that has no file).
    public static func folder(of path: String?) -> String {
        guard let path, let slash = path.lastIndex(of: "/") else { return "" }
        return String(path[..<slash])
    }

    /// Of several notes answering to one name, the nearest to the linking note's folder, as
    /// Obsidian picks: the fewest steps up and down the folder tree between the two folders; then
    /// the shallower one; then the first in `candidates` (callers pass them in the order stored).
    public static func nearest<ID>(_ candidates: [(id: ID, path: String?)], toFolder folder: String) -> ID? {
        let from = folder.split(separator: "/")
        func distance(_ path: String?) -> (steps: Int, depth: Int) {
            let to = NoteNames.folder(of: path).split(separator: "/")
            let shared = zip(from, to).prefix { $0 == $1 }.count
            return (from.count - shared + to.count - shared, to.count)
        }
        return candidates.min { distance($0.path) < distance($1.path) }?.id
    }
}
