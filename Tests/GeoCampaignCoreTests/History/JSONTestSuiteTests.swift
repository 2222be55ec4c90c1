import Foundation
import XCTest
@testable import GeoCampaignCore

/// Feeds every file of JSONTestSuite's test_parsing folder to the line parser as one line.
final class HistoryJSONTestSuiteTests: XCTestCase {
    func files() throws -> [(String, [UInt8])] {
        let dir = HistoryTestPaths.sharedPath("data/JSONTestSuite/test_parsing")
        let names = try FileManager.default.contentsOfDirectory(atPath: dir).sorted()
        XCTAssertEqual(names.count, 318)
        return try names.map { ($0, [UInt8](try Data(contentsOf: URL(fileURLWithPath: dir + "/" + $0)))) }
    }

    static func isSpacesAndTabs(_ b: [UInt8]) -> Bool { b.allSatisfy { $0 == 0x20 || $0 == 0x09 } }

    func testAcceptedFilesParseAsJSON() throws {
        let parser = JSONLineParser()
        var checked = 0
        for (name, bytes) in try files() where name.hasPrefix("y_") {
            switch parser.parse(line: bytes) {
            case .blank:
                XCTFail("\(name): blank")
            case .accepted:
                XCTFail("\(name): accepted as a fix")
            case .rejected(let reason, let detail):
                XCTAssertFalse(reason == .invalidJSON || reason == .badEncoding || reason == .tooLong,
                               "\(name): \(reason) \(detail)")
            }
            checked += 1
        }
        XCTAssertEqual(checked, 95)
    }

    func testObjectsGoOnToFieldChecksAndOthersAreNotObject() throws {
        let parser = JSONLineParser()
        for (name, bytes) in try files() where name.hasPrefix("y_") {
            guard case .rejected(let reason, _) = parser.parse(line: bytes) else { continue }
            let firstNonWS = bytes.first { !($0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D) }
            if firstNonWS == UInt8(ascii: "{") {
                XCTAssertEqual(reason, .missingField, name)
            } else {
                XCTAssertEqual(reason, .notObject, name)
            }
        }
    }

    func testRejectedFilesAreInvalidJSONOrBadEncoding() throws {
        let parser = JSONLineParser()
        var checked = 0
        for (name, bytes) in try files() where name.hasPrefix("n_") {
            switch parser.parse(line: bytes) {
            case .blank:
                // An empty file or one of only spaces is a blank line in JSON Lines, not a rejection.
                XCTAssertTrue(HistoryJSONTestSuiteTests.isSpacesAndTabs(bytes), "\(name): blank")
            case .accepted:
                XCTFail("\(name): accepted")
            case .rejected(let reason, let detail):
                XCTAssertTrue(reason == .invalidJSON || reason == .badEncoding, "\(name): \(reason) \(detail)")
            }
            checked += 1
        }
        XCTAssertEqual(checked, 188)
    }

    func testImplementationDefinedFilesDoNotCrash() throws {
        let parser = JSONLineParser()
        var outcomes: [String: String] = [:]
        for (name, bytes) in try files() where name.hasPrefix("i_") {
            switch parser.parse(line: bytes) {
            case .blank: outcomes[name] = "blank"
            case .accepted: outcomes[name] = "accepted"
            case .rejected(let reason, _): outcomes[name] = reason.rawValue
            }
        }
        XCTAssertEqual(outcomes.count, 35)
        // Huge exponents are valid JSON numbers; invalid UTF-8 is bad_encoding.
        XCTAssertEqual(outcomes["i_number_huge_exp.json"], "not_object")
        XCTAssertEqual(outcomes["i_string_invalid_utf-8.json"], "bad_encoding")
        XCTAssertEqual(outcomes["i_string_1st_surrogate_but_2nd_missing.json"], "not_object")
        XCTAssertEqual(outcomes["i_structure_500_nested_arrays.json"], "not_object")
    }
}
