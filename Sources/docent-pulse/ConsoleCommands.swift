import ArgumentParser
import PulseKit
import Foundation
import PulseService
import PulseKitSQLite

/// The console's store, opened from `--database` (staff accounts, bans, erasure and the audit
/// log are kept in the store itself, so these commands act on it directly).
struct ConsoleTarget: ParsableArguments {
    @Option(help: "The Pulse store: sqlite:PATH or postgres://USER@HOST:PORT/DB (default: DOCENT_PULSE_DATABASE, else the `database` of the --config file).")
    var database: String

    @Option(help: "The service's configuration file (as serve's; DOCENT_PULSE_CONFIG also names it): its `database` is used when --database is not given.")
    var config: String?

    @Option(name: .customLong("as"), help: "Who the audit log names for this action.")
    var staff: String = "command-line"

    func open() async throws -> (any ConsoleStore, () -> Void) {
        switch PulseServer.Database.parse(database) {
        case .failure(let f): throw ValidationError(f.message)
        case .success(.sqlite(let path)):
            switch SQLiteConsoleStore.open(path: path, createDirectory: false, clock: { Date() }) {
            case .success(let s): return (s, {})
            case .failure(let f): throw StaffFailure(f.message)
            }
        case .success(.postgres(let location)):
            switch await PostgresConsoleStore.open(location, clock: { Date() }) {
            case .success(let s): return (s, { s.close() })
            case .failure(let f): throw StaffFailure(f.message)
            }
        }
    }
}

/// Runs a console command; a failure is one line on standard error and exit status 1.
func consoleRun(_ target: ConsoleTarget, _ body: (any ConsoleStore) async throws -> Void) async throws {
    do {
        let (store, close) = try await target.open()
        defer { close() }
        try await body(store)
    } catch let e as StaffFailure {
        FileHandle.standardError.write(Data("docent-pulse: \(e.description)\n".utf8))
        throw ExitCode(1)
    } catch let e as PulseStoreError {
        FileHandle.standardError.write(Data("docent-pulse: \(PulseWire.error(e).body["error"]?.stringValue ?? "\(e)")\n".utf8))
        throw ExitCode(1)
    }
}

struct StaffAccounts: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "staff", abstract: "Staff accounts of the console: add (or change a password), remove, set a role, list.",
        subcommands: [Add.self, Remove.self, Role.self, List.self])

    /// A role as typed (`staff` or `admin`).
    static func role(_ text: String) throws -> StaffRole {
        guard let r = StaffRole(rawValue: text) else { throw ValidationError("a role is staff or admin (admin: may manage accounts in the console), not '\(text)'") }
        return r
    }

    static func refusal(_ change: StaffChange, _ name: String) -> StaffFailure? {
        switch change {
        case .done: return nil
        case .noSuchAccount: return StaffFailure("no staff account \(name)")
        case .lastManager: return StaffFailure("\(name) is the last account that may manage accounts: give another account the admin role first (staff role NAME admin)")
        case .yourself, .notAllowed: return StaffFailure("refused")
        }
    }

    struct Add: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Add a staff account, or set its password: the password is read from standard input (one line) and kept as a bcrypt hash.")
        @OptionGroup var target: ConsoleTarget
        @Argument(help: "The account's name (a-z, 0-9, '.', '-', '_'; the audit log shows it).") var name: String
        @Option(help: "bcrypt's cost (10…16).") var cost: Int = 12
        @Option(help: "staff, or admin (may also manage accounts in the console's accounts page); an existing account keeps its role unless this is given.")
        var role: String?

        func run() async throws {
            let role = try self.role.map(StaffAccounts.role)
            guard StaffPassword.validName(name) else { throw ValidationError("a staff name is 1 to 40 of a-z, 0-9, '.', '-' and '_' (and not staff-token)") }
            guard (10...16).contains(cost) else { throw ValidationError("--cost must be 10 to 16") }
            if isatty(0) != 0 { FileHandle.standardError.write(Data("Password for \(name) (at least 10 characters): ".utf8)) }
            guard let password = readLine(strippingNewline: true), password.count >= 10 else {
                throw ValidationError("the password (standard input, one line) must be at least 10 characters")
            }
            try await consoleRun(target) { c in
                let old = try await c.staffHashAndRole(name: name)
                let hash = StaffPassword.hash(password, cost: UInt8(cost))
                if old == nil, try await c.addStaff(name: name, passwordHash: hash, role: role ?? .staff) {
                    try await c.audit(AuditEntry(at: Date(), staff: target.staff, action: "staff-add", target: "staff:" + name, before: "", after: "role " + (role ?? .staff).rawValue))
                    print("Added \(name)" + (role == .admin ? " (admin)." : "."))
                    return
                }
                try await c.putStaff(name: name, passwordHash: hash)
                try await c.audit(AuditEntry(at: Date(), staff: target.staff, action: "staff-password", target: "staff:" + name, before: "", after: "sessions ended"))
                if let role, role != old?.role {
                    if let refused = StaffAccounts.refusal(try await c.setStaffRole(name: name, role: role), name) { throw refused }
                    try await c.audit(
                        AuditEntry(at: Date(), staff: target.staff, action: "staff-role", target: "staff:" + name, before: old?.role.rawValue ?? "", after: role.rawValue))
                }
                print("Changed the password of \(name).")
            }
        }
    }

    struct Remove: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Remove a staff account (its sessions end).")
        @OptionGroup var target: ConsoleTarget
        @Argument var name: String
        func run() async throws {
            try await consoleRun(target) { c in
                if let refused = StaffAccounts.refusal(try await c.removeStaff(name: name, by: nil), name) { throw refused }
                try await c.audit(AuditEntry(at: Date(), staff: target.staff, action: "staff-remove", target: "staff:" + name, before: "", after: ""))
                print("Removed \(name).")
            }
        }
    }

    struct Role: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Set an account's role: staff, or admin (may also manage accounts in the console); the last admin keeps the role.")
        @OptionGroup var target: ConsoleTarget
        @Argument var name: String
        @Argument(help: "staff or admin") var role: String
        func run() async throws {
            let role = try StaffAccounts.role(self.role)
            try await consoleRun(target) { c in
                let old = try await c.staffHashAndRole(name: name)?.role
                if let refused = StaffAccounts.refusal(try await c.setStaffRole(name: name, role: role), name) { throw refused }
                if old != role {
                    try await c.audit(AuditEntry(at: Date(), staff: target.staff, action: "staff-role", target: "staff:" + name, before: old?.rawValue ?? "", after: role.rawValue))
                }
                print("\(name) is \(role.rawValue).")
            }
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List the staff accounts (name, then role).")
        @OptionGroup var target: ConsoleTarget
        func run() async throws {
            try await consoleRun(target) { c in for a in try await c.staffAccounts() { print("\(a.name)\t\(a.role.rawValue)") } }
        }
    }
}

struct Ban: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Ban a visitor: their notes hidden, their writes (and reads as them) refused.")
    @OptionGroup var target: ConsoleTarget
    @Argument(help: "The visitor id.") var visitor: String
    @Flag(help: "Lift the ban instead.") var lift = false

    func run() async throws {
        guard let v = VisitorID(visitor), v != .curator else { throw ValidationError("not a visitor id: '\(visitor)'") }
        try await consoleRun(target) { c in
            if lift {
                guard try await c.unban(v) else { throw StaffFailure("\(v.rawValue) is not banned") }
                try await c.audit(AuditEntry(at: Date(), staff: target.staff, action: "unban", target: "visitor:" + v.rawValue, before: "banned", after: "allowed"))
                print("Lifted the ban on \(v.rawValue).")
            } else {
                let (changed, notes) = try await c.ban(v, by: target.staff)
                guard changed else { throw StaffFailure("\(v.rawValue) is already banned") }
                try await c.audit(
                    AuditEntry(at: Date(), staff: target.staff, action: "ban", target: "visitor:" + v.rawValue, before: "allowed", after: "banned, \(notes) notes hidden"))
                print("Banned \(v.rawValue): \(notes) notes hidden.")
            }
        }
    }
}

struct Erase: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Erase everything of one visitor (on their request): identity, notes, reactions, reports, activity.")
    @OptionGroup var target: ConsoleTarget
    @Argument(help: "The visitor id.") var visitor: String
    @Flag(help: "Confirm: this cannot be undone.") var yes = false

    func run() async throws {
        guard let v = VisitorID(visitor), v != .curator else { throw ValidationError("not a visitor id: '\(visitor)'") }
        guard yes else { throw ValidationError("erasing cannot be undone: add --yes") }
        try await consoleRun(target) { c in
            let gone = try await c.erase(v)
            try await c.audit(AuditEntry(at: Date(), staff: target.staff, action: "erase", target: "visitor:" + v.rawValue, before: gone.summary, after: "erased"))
            print(gone.existed ? "Erased \(v.rawValue): \(gone.summary)." : "No visitor \(v.rawValue); erased what was left: \(gone.summary).")
        }
    }
}

struct Audit: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "The audit log of staff actions, newest first (tab-separated, or CSV).")
    @OptionGroup var target: ConsoleTarget
    @Option(help: "Only this staff member's actions.") var staffName: String?
    @Option(help: "Only this action (sign-in, decide, ban, unban, erase, feature, announce, staff-add …).") var action: String?
    @Option(help: "At most this many entries.") var limit: Int = 1000
    @Flag(help: "CSV with a header line.") var csv = false

    func run() async throws {
        try await consoleRun(target) { c in
            let entries = try await c.auditLog(AuditFilter(staff: staffName, action: action, limit: max(1, limit)))
            let f = ISO8601DateFormatter()
            if csv { print("at,staff,action,target,before,after") }
            for e in entries {
                let fields = [f.string(from: e.at), e.staff, e.action, e.target, e.before, e.after]
                if csv {
                    print(fields.map { "\"" + $0.replacingOccurrences(of: "\"", with: "\"\"") + "\"" }.joined(separator: ","))
                } else {
                    print(fields.map { $0.replacingOccurrences(of: "\t", with: " ").replacingOccurrences(of: "\n", with: " ") }.joined(separator: "\t"))
                }
            }
        }
    }
}
