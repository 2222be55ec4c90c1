import CSQLite
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A connection to one SQLite database file; `deinit` closes it. SQLite's C types stay inside
/// this file and `SQLiteStatement`; errors are `RunError`s naming the database's path.
final class SQLiteDatabase {
    let path: String
    fileprivate let handle: OpaquePointer

    /// Opens (creating when `create`) the database at `path`.
    init(path: String, create: Bool) throws {
        self.path = path
        var db: OpaquePointer?
        let flags = SQLITE_OPEN_READWRITE | (create ? SQLITE_OPEN_CREATE : 0) | SQLITE_OPEN_NOMUTEX
        let rc = sqlite3_open_v2(path, &db, flags, nil)
        guard rc == SQLITE_OK, let db else {
            let message = db.map { String(cString: sqlite3_errmsg($0)) } ?? "out of memory"
            if let db { sqlite3_close_v2(db) }
            throw RunError.failure("\(path): cannot open the state: \(message)")
        }
        handle = db
        sqlite3_extended_result_codes(db, 1)
        // Closing leaves the write-ahead log to the next run's checkpoint (`StateStore`): by
        // default the last connection to close copies it into the database, on the run's time.
        _ = geoc_sqlite3_no_checkpoint_on_close(db, 1)
    }

    deinit { sqlite3_close_v2(handle) }

    /// The last error as a message naming the database.
    func failure(_ what: String) -> RunError {
        let code = sqlite3_extended_errcode(handle)
        let message = String(cString: sqlite3_errmsg(handle))
        if code & 0xFF == SQLITE_BUSY || code & 0xFF == SQLITE_LOCKED {
            return .failure("\(path): the state is in use by another run (\(message)); try again when it has finished")
        }
        if code & 0xFF == SQLITE_NOTADB || code & 0xFF == SQLITE_CORRUPT {
            return .data("\(path): not a geocampaign state, or a damaged one (\(message))")
        }
        return .failure("\(path): \(what): \(message)")
    }

    /// Runs one or more statements without results.
    func exec(_ sql: String) throws {
        var err: UnsafeMutablePointer<CChar>?
        if sqlite3_exec(handle, sql, nil, nil, &err) != SQLITE_OK {
            sqlite3_free(err)
            throw failure("cannot run \(sql.prefix(40))")
        }
    }

    /// Prepares a statement.
    func prepare(_ sql: String) throws -> SQLiteStatement {
        var stmt: OpaquePointer?
        guard sqlite3_prepare_v2(handle, sql, -1, &stmt, nil) == SQLITE_OK, let stmt else { throw failure("cannot prepare \(sql.prefix(40))") }
        return SQLiteStatement(db: self, stmt: stmt)
    }

    /// A passive checkpoint of the write-ahead log (it waits for no lock and blocks no one).
    /// - Returns: the frames in the log and how many of them are now in the database, or nil
    ///   when it could not run (another checkpoint, not in WAL mode).
    func checkpointPassive() -> (frames: Int, done: Int)? {
        var log: Int32 = 0, done: Int32 = 0
        guard sqlite3_wal_checkpoint_v2(handle, nil, SQLITE_CHECKPOINT_PASSIVE, &log, &done) == SQLITE_OK, log >= 0 else { return nil }
        return (Int(log), Int(done))
    }

    /// The value of an integer pragma.
    func pragma(_ name: String) throws -> Int64 {
        let s = try prepare("PRAGMA \(name)")
        guard try s.step() else { return 0 }
        return s.int(0)
    }
}

/// A prepared statement; `deinit` finalizes it.
final class SQLiteStatement {
    private let db: SQLiteDatabase
    private let stmt: OpaquePointer

    fileprivate init(db: SQLiteDatabase, stmt: OpaquePointer) {
        self.db = db
        self.stmt = stmt
    }

    deinit { sqlite3_finalize(stmt) }

    /// A value to bind.
    enum Value {
        case int(Int64)
        case text(String)
        case blob([UInt8])
        case null
    }

    /// Resets the statement and binds `values` to ?1, ?2, ...
    func bind(_ values: [Value]) throws {
        sqlite3_reset(stmt)
        sqlite3_clear_bindings(stmt)
        let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
        for (i, v) in values.enumerated() {
            let k = Int32(i + 1)
            let rc: Int32
            switch v {
            case .int(let n): rc = sqlite3_bind_int64(stmt, k, n)
            case .text(let s): rc = sqlite3_bind_text(stmt, k, s, -1, transient)
            case .blob(let b): rc = b.withUnsafeBytes { sqlite3_bind_blob64(stmt, k, $0.baseAddress ?? UnsafeRawPointer(bitPattern: 1), sqlite3_uint64($0.count), transient) }
            case .null: rc = sqlite3_bind_null(stmt, k)
            }
            if rc != SQLITE_OK { throw db.failure("cannot bind a value") }
        }
    }

    /// Resets the statement and binds ?1 to the text of `bytes` (UTF-8, copied): compared with a
    /// TEXT column as text, byte by byte (a BLOB value would compare above every text).
    func bind(text bytes: UnsafeRawBufferPointer) throws {
        sqlite3_reset(stmt)
        sqlite3_clear_bindings(stmt)
        let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
        let p = (bytes.baseAddress ?? UnsafeRawPointer(bitPattern: 1)!).assumingMemoryBound(to: CChar.self)
        if sqlite3_bind_text(stmt, 1, p, Int32(bytes.count), transient) != SQLITE_OK { throw db.failure("cannot bind a value") }
    }

    /// A value bound where it lies (`run(borrowing:)`).
    enum Borrowed {
        case int(Int64)
        /// UTF-8 bytes, bound as text.
        case text(UnsafeRawBufferPointer)
        case blob(UnsafeRawBufferPointer)
    }

    /// Runs the statement to completion with `values` bound to ?1, ?2, ... where they lie
    /// (`SQLITE_STATIC`: SQLite copies no text or blob; they are unbound before this returns,
    /// while they still exist).
    func run(borrowing values: [Borrowed]) throws {
        sqlite3_reset(stmt)
        defer { sqlite3_clear_bindings(stmt) }
        let none = UnsafeRawPointer(bitPattern: 1)!
        for (i, v) in values.enumerated() {
            let k = Int32(i + 1)
            let rc: Int32
            switch v {
            case .int(let n): rc = sqlite3_bind_int64(stmt, k, n)
            case .text(let b): rc = sqlite3_bind_text(stmt, k, (b.baseAddress ?? none).assumingMemoryBound(to: CChar.self), Int32(b.count), nil)
            case .blob(let b): rc = sqlite3_bind_blob(stmt, k, b.baseAddress ?? none, Int32(b.count), nil)
            }
            if rc != SQLITE_OK { throw db.failure("cannot bind a value") }
        }
        while try step() {}
    }

    /// Steps once: true when a row is available.
    func step() throws -> Bool {
        switch sqlite3_step(stmt) {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        default: throw db.failure("cannot read or write the state")
        }
    }

    /// Binds and runs to completion.
    func run(_ values: [Value] = []) throws {
        try bind(values)
        while try step() {}
    }

    func int(_ col: Int32) -> Int64 { sqlite3_column_int64(stmt, col) }
    func isNull(_ col: Int32) -> Bool { sqlite3_column_type(stmt, col) == SQLITE_NULL }
    func text(_ col: Int32) -> String {
        guard let p = sqlite3_column_text(stmt, col) else { return "" }
        return String(cString: p)
    }
    /// The text of column `col` against `other`, by bytes (SQLite's BINARY collation):
    /// negative, zero or positive.
    func compareText(_ col: Int32, with other: String) -> Int {
        let p = sqlite3_column_text(stmt, col)
        let n = Int(sqlite3_column_bytes(stmt, col))
        var other = other
        return other.withUTF8 { o -> Int in
            let m = min(n, o.count)
            if m > 0, let p, let base = o.baseAddress {
                let c = memcmp(p, base, m)
                if c != 0 { return Int(c) }
            }
            return n - o.count
        }
    }
    func blob(_ col: Int32) -> [UInt8] { withBlob(col) { Array($0) } }
    /// The bytes of column `col` where SQLite holds them, valid until the statement steps on
    /// or is reset (no copy).
    func withBlob<T>(_ col: Int32, _ body: (UnsafeRawBufferPointer) throws -> T) rethrows -> T {
        let p = sqlite3_column_blob(stmt, col)
        let n = Int(sqlite3_column_bytes(stmt, col))
        return try body(UnsafeRawBufferPointer(start: n > 0 ? p : nil, count: n > 0 ? n : 0))
    }

    /// Runs the statement to completion with ?1 = `text`, ?2 = `int` and ?3 = `blob`, bound
    /// where they lie (`SQLITE_STATIC`: SQLite copies neither; they are unbound before this
    /// returns, while they still exist). Cheaper than `run(_:)`, which builds an array of
    /// values and has SQLite copy each text and blob (`SQLITE_TRANSIENT`).
    func run(text: String, int: Int64, blob: [UInt8]) throws {
        sqlite3_reset(stmt)
        defer { sqlite3_clear_bindings(stmt) }
        var text = text
        // A pointer for empty values: SQLite binds NULL for a null one, and reads no byte here.
        let none = UnsafeRawPointer(bitPattern: 1)!
        try text.withUTF8 { t in
            try blob.withUnsafeBytes { b in
                let tp = t.baseAddress.map(UnsafeRawPointer.init) ?? none
                guard sqlite3_bind_text(stmt, 1, tp.assumingMemoryBound(to: CChar.self), Int32(t.count), nil) == SQLITE_OK,
                      sqlite3_bind_int64(stmt, 2, int) == SQLITE_OK,
                      sqlite3_bind_blob(stmt, 3, b.baseAddress ?? none, Int32(b.count), nil) == SQLITE_OK else {
                    throw db.failure("cannot bind a value")
                }
                while try step() {}
            }
        }
    }
}
