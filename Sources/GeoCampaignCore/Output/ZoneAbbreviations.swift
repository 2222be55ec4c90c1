import Foundation

/// The abbreviations a time zone uses (`CET`, `CEST`, `PST`), read from the system's TZif file
/// (`/usr/share/zoneinfo/NAME`, RFC 8536), since Foundation on Linux answers `GMT+1`.
///
/// Each local time type of the file is kept as (UTC offset, daylight saving, abbreviation); the
/// abbreviation of an instant is that of the type whose offset and daylight flag match the
/// zone's at that instant, so instants beyond the file's last transition are named too.
final class ZoneAbbreviations: Sendable {
    /// One local time type of the file.
    struct LocalType: Sendable {
        var offsetS: Int64
        var isDST: Bool
        var abbreviation: String
    }

    /// The types in file order.
    let types: [LocalType]

    /// Reads the types of zone `identifier`; none when the file is missing or unreadable.
    init(identifier: String, directory: String = "/usr/share/zoneinfo") {
        guard !identifier.contains(".."), let data = FileManager.default.contents(atPath: directory + "/" + identifier) else {
            types = []
            return
        }
        types = Self.parse([UInt8](data))
    }

    /// The abbreviation for an instant whose offset (seconds east of UTC) and daylight flag are
    /// known; nil when no type of the file matches (or the abbreviation is empty).
    func abbreviation(offsetS: Int64, isDST: Bool) -> String? {
        let match = types.last { $0.offsetS == offsetS && $0.isDST == isDST } ?? types.last { $0.offsetS == offsetS }
        guard let a = match?.abbreviation, !a.isEmpty else { return nil }
        return a
    }

    /// The local time types of a TZif file: the version 2+ (64-bit) block when there is one, else version 1.
    /// - Complexity: O(file size).
    static func parse(_ b: [UInt8]) -> [LocalType] {
        func u32(_ at: Int) -> Int? {
            guard at + 4 <= b.count else { return nil }
            return Int(b[at]) << 24 | Int(b[at + 1]) << 16 | Int(b[at + 2]) << 8 | Int(b[at + 3])
        }
        func block(at start: Int, timeSize: Int) -> (types: [LocalType], end: Int)? {
            guard b.count >= start + 44, b[start] == 0x54, b[start + 1] == 0x5A, b[start + 2] == 0x69, b[start + 3] == 0x66,
                  let isut = u32(start + 20), let isstd = u32(start + 24), let leap = u32(start + 28),
                  let timecnt = u32(start + 32), let typecnt = u32(start + 36), let charcnt = u32(start + 40) else { return nil }
            let typesAt = start + 44 + timecnt * timeSize + timecnt
            let charsAt = typesAt + typecnt * 6
            let end = charsAt + charcnt + leap * (timeSize + 4) + isstd + isut
            guard end <= b.count else { return nil }
            var out: [LocalType] = []
            for k in 0..<typecnt {
                let at = typesAt + k * 6
                guard let raw = u32(at) else { return nil }
                let offset = Int64(Int32(truncatingIfNeeded: raw))
                let index = Int(b[at + 5])
                var chars: [UInt8] = []
                var i = charsAt + index
                while i < charsAt + charcnt, b[i] != 0 { chars.append(b[i]); i += 1 }
                out.append(LocalType(offsetS: offset, isDST: b[at + 4] != 0, abbreviation: String(decoding: chars, as: UTF8.self)))
            }
            return (out, end)
        }
        guard let v1 = block(at: 0, timeSize: 4) else { return [] }
        if b.count > 4, b[4] >= 0x32, let v2 = block(at: v1.end, timeSize: 8) { return v2.types }
        return v1.types
    }
}
