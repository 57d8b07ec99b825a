// Who may use the page: the one who has the address `notes serve` printed. A random token in
// that address (kept in a cookie after the first request), a Host header that names the loopback
// address served (a page of another site resolving its name to 127.0.0.1 is refused: DNS
// rebinding), and on every change a same-origin request carrying the session's CSRF value.
import Foundation

public struct PageAccess: Sendable {
    public let token: String
    /// In every form, and checked on every change.
    public let csrf: String
    public let port: Int

    public init(port: Int, token: String = PageAccess.randomValue(), csrf: String = PageAccess.randomValue()) {
        self.port = port
        self.token = token
        self.csrf = csrf
    }

    /// 32 random bytes in hex, from the system's generator.
    public static func randomValue() -> String {
        var generator = SystemRandomNumberGenerator()
        return (0..<4).map { _ in String(format: "%016llx", generator.next() as UInt64) }.joined()
    }

    /// Cookies are not kept apart by port: two pages served at once each have a cookie of their own.
    public var cookieName: String { "notes_token_\(port)" }

    /// The addresses the page is served at, as a browser's Host header names them.
    var hosts: Set<String> { ["127.0.0.1:\(port)", "[::1]:\(port)", "localhost:\(port)"] }

    public enum Verdict: Equatable, Sendable {
        case allowed
        /// The token came in the address: set the cookie and send the browser to the same page without it.
        case allowedFromAddress
        case refused(status: Int, reason: String)
    }

    public func check(_ request: HTTPRequest) -> Verdict {
        guard let host = request.headers["host"], hosts.contains(host.lowercased()) else {
            return .refused(status: 421, reason: "This page answers only at 127.0.0.1:\(port) (the Host header named another address).")
        }
        var verdict = Verdict.allowed
        if let given = request.arguments["token"], Self.same(given, token) {
            verdict = .allowedFromAddress
        } else if !Self.same(cookie(in: request) ?? "", token) {
            return .refused(status: 403, reason: "This page needs the address 'notes serve' printed, with its token.")
        }
        // Nothing is read of a body past the limit (the pages answer 413), so there is no form to check.
        guard request.method == "POST", !request.bodyTooLarge else { return verdict }
        // A change: from this page (same origin), with this session's CSRF value.
        if let site = request.headers["sec-fetch-site"], site != "same-origin" {
            return .refused(status: 403, reason: "A change must come from this page (the request came from another site).")
        }
        if let origin = request.headers["origin"], !hosts.contains(where: { "http://" + $0 == origin.lowercased() }) {
            return .refused(status: 403, reason: "A change must come from this page (the request came from \(origin)).")
        }
        guard Self.same(request.form["csrf"] ?? "", csrf) else {
            return .refused(status: 403, reason: "This form is out of date or not from this page; reload the page and try again.")
        }
        return verdict
    }

    func cookie(in request: HTTPRequest) -> String? {
        for pair in (request.headers["cookie"] ?? "").split(separator: ";") {
            let parts = pair.split(separator: "=", maxSplits: 1)
            if parts.count == 2, parts[0].trimmingCharacters(in: .whitespaces) == cookieName { return String(parts[1]).trimmingCharacters(in: .whitespaces) }
        }
        return nil
    }

    /// The cookie that keeps the token after the first request: not readable by scripts, not
    /// sent with requests from other sites.
    var setCookie: String { "\(cookieName)=\(token); Path=/; HttpOnly; SameSite=Strict" }

    /// Compares in time independent of where the two differ.
    static func same(_ a: String, _ b: String) -> Bool {
        let x = Array(a.utf8), y = Array(b.utf8)
        guard x.count == y.count else { return false }
        return zip(x, y).reduce(0) { $0 | ($1.0 ^ $1.1) } == 0
    }
}
