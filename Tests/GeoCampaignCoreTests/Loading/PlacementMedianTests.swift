import XCTest
@testable import GeoCampaignCore

/// The middle value found by selection (`CampaignDecoder.middleValue`) is the middle of the
/// sorted list, bit for bit.
final class PlacementMedianTests: XCTestCase {
    private func sortedMiddle(_ v: [Double]) -> Double {
        let s = v.sorted()
        return s.count % 2 == 1 ? s[s.count / 2] : (s[s.count / 2 - 1] + s[s.count / 2]) / 2
    }

    func testSelectionGivesTheMiddleOfTheSortedList() {
        var rng = SplitMix64(seed: 515)
        var differentFromFirst = 0
        for trial in 0..<3_000 {
            let n = Int.random(in: 1...(trial % 10 == 0 ? 5_000 : 60), using: &rng)
            var v: [Double]
            switch trial % 5 {
            case 0: v = (0..<n).map { _ in Double.random(in: -180...180, using: &rng) }
            case 1:  // many equal values, zeros of both signs
                v = (0..<n).map { _ in
                    let x = Double(Int.random(in: -3...3, using: &rng)) / 4
                    return x == 0 && Bool.random(using: &rng) ? -0.0 : x
                }
            case 2: v = (0..<n).map { Double($0) }  // sorted
            case 3: v = (0..<n).map { Double(n - $0) }  // reversed
            default: v = (0..<n).map { _ in 37.5 + Double(Int.random(in: 0...5, using: &rng)) * 1e-6 }
            }
            if trial % 7 == 0 { v = v.map { $0 == 0 ? -0.0 : $0 } }
            let want = sortedMiddle(v)
            var work = v
            let got = CampaignDecoder.middleValue(&work)
            XCTAssertEqual(got.bitPattern, want.bitPattern, "\(v)")
            XCTAssertEqual(work.sorted(), v.sorted())
            if got != v[0] { differentFromFirst += 1 }
        }
        // Not vacuous: the middle is usually not the first value.
        XCTAssertGreaterThan(differentFromFirst, 2_000)
    }
}
