import XCTest
@testable import GeoCampaignCore

final class LoadingConformanceTests: XCTestCase {
    static let campaignsDir = TestData.path("conformance-1/campaigns")

    func load() throws -> LoadResult {
        try XCTSkipUnless(FileManager.default.fileExists(atPath: Self.campaignsDir), "conformance examples not present")
        return CampaignLoader().load(paths: [Self.campaignsDir])
    }

    func campaign(_ r: LoadResult, _ id: String) throws -> Campaign {
        try XCTUnwrap(r.campaignSet.campaigns.first { $0.id == id })
    }

    func region(_ c: Campaign, _ id: String) throws -> Region {
        try XCTUnwrap(c.regions.first { $0.id == id })
    }

    func rule(_ c: Campaign, _ id: String) throws -> Rule {
        try XCTUnwrap(c.rules.first { $0.id == id })
    }

    func testLoadsWithoutErrors() throws {
        let r = try load()
        XCTAssertEqual(r.errorCount, 0, r.diagnostics.map(\.description).joined(separator: "\n"))
        XCTAssertFalse(r.hasErrors)
        XCTAssertEqual(r.campaignSet.campaigns.map(\.id), ["auto-insurance", "car-shoppers", "fitness-fuel", "lorrenzillos", "mall-events"])
        XCTAssertEqual(r.unreadablePaths, [])
        XCTAssertEqual(r.campaignCount, 5)
        XCTAssertEqual(r.regionCount, 10 + 10 + 3 + 6 + 1)
        XCTAssertEqual(r.ruleCount, 1 + 2 + 5 + 5 + 1)
        XCTAssertEqual(r.offerCount, 1 + 2 + 5 + 5 + 1)
        // Small circles (80 m, 50 m, 200 ft) and the unused plaza are the only warnings.
        XCTAssertEqual(r.diagnostics.map { "\(($0.path as NSString).lastPathComponent):\($0.line):\($0.column)" },
                       ["fitness-fuel.yaml:6:57", "fitness-fuel.yaml:11:57", "lorrenzillos.yaml:22:9", "lorrenzillos.yaml:45:57"])
        XCTAssertEqual(r.warningCount, 4)
        XCTAssertEqual(r.summary, "5 campaigns, 30 regions, 14 rules, 14 offers: 0 errors, 4 warnings")
    }

    func testCirclesAndDistances() throws {
        let c = try campaign(try load(), "lorrenzillos")
        guard case .circle(let center, let radius) = try region(c, "noodle-bar").shape else { return XCTFail("noodle-bar is not a circle") }
        XCTAssertEqual(center, Coordinate(lat: 37.689536, lon: -121.757462))
        XCTAssertEqual(radius, 60.96, accuracy: 1e-9)
        XCTAssertEqual(try region(c, "noodle-bar").confirmMs, 0)
        guard case .circle(let pc, let pr) = try region(c, "plaza").shape else { return XCTFail("plaza is not a circle") }
        XCTAssertEqual(pc, Coordinate(lat: 37.704375, lon: -121.748370))
        XCTAssertEqual(pr, 250, accuracy: 1e-9)
        let lz = try region(c, "lorrenzillos")
        XCTAssertEqual(lz.name, "Lorrenzillo's")
        XCTAssertEqual(lz.tags, ["own-restaurant"])
        XCTAssertEqual(lz.hysteresisM, 30)
        XCTAssertEqual(c.holdoutPercent, 10)
        XCTAssertEqual(c.tracking, Tracking(confirmMs: 20_000))
    }

    func testPolygonsWithHolesAndImports() throws {
        let r = try load()
        let c = try campaign(r, "lorrenzillos")
        guard case .polygon(let parts) = try region(c, "burger-barn").shape else { return XCTFail("burger-barn is not a polygon") }
        XCTAssertEqual(parts.count, 1)
        XCTAssertEqual(parts[0].outer.count, 6, "closing point stripped")
        XCTAssertEqual(parts[0].holes.map(\.count), [4])
        XCTAssertEqual(try region(c, "burger-barn").confirmMs, 45_000)
        guard case .polygon(let pizza) = try region(c, "pizza-co").shape else { return XCTFail("pizza-co is not a polygon") }
        XCTAssertEqual(pizza[0].outer[1], Coordinate(lat: 37.703242, lon: -121.748492))
        let taco = try region(c, "taco-town")
        XCTAssertEqual(taco.name, "Taco Town")
        XCTAssertEqual(taco.tags, ["competitor", "mexican"])
        guard case .polygon(let tacoParts) = taco.shape else { return XCTFail("taco-town is not a polygon") }
        XCTAssertEqual(tacoParts.count, 2)
        XCTAssertEqual(tacoParts[0].outer.count, 4)
        XCTAssertEqual(tacoParts[0].outer[0], Coordinate(lat: 37.7081457, lon: -121.7774205))

        let cars = try campaign(r, "car-shoppers")
        XCTAssertEqual(cars.regions.map(\.id), ["dealer-1", "dealer-2", "dealer-3", "dealer-4", "dealer-5", "dealer-6", "dealer-7", "dealer-8", "auto-mall-north", "auto-mall-south"])
        let d2 = try region(cars, "dealer-2")
        XCTAssertEqual(d2.name, "Dealer 2")
        XCTAssertEqual(d2.tags, ["car-dealer", "luxury"])
        guard case .circle(let dc, let dr) = d2.shape else { return XCTFail("dealer-2 is not a circle") }
        XCTAssertEqual(dc, Coordinate(lat: 37.6715639, lon: -121.7850023))
        XCTAssertEqual(dr, 120)
        let north = try region(cars, "auto-mall-north")
        guard case .polygon(let np) = north.shape else { return XCTFail("auto-mall-north is not a polygon") }
        XCTAssertEqual(np.count, 1)
        XCTAssertEqual(np[0].holes.count, 1)
        let south = try region(cars, "auto-mall-south")
        XCTAssertEqual(south.tags, ["car-dealer", "used-cars"])
        guard case .polygon(let sp) = south.shape else { return XCTFail("auto-mall-south is not a polygon") }
        XCTAssertEqual(sp.count, 2)
    }

    func testActiveWindows() throws {
        let r = try load()
        let cars = try campaign(r, "car-shoppers")
        XCTAssertEqual(cars.active?.fromMs, 1_772_524_800_000)   // 2026-03-03T08:00:00Z
        XCTAssertEqual(cars.active?.untilMs, 1_773_385_200_000)  // 2026-03-13T07:00:00Z (PDT)
        XCTAssertEqual(cars.active?.timezone, "America/Los_Angeles")
        XCTAssertEqual(cars.holdoutPercent, 20)
        let mall = try campaign(r, "mall-events")
        XCTAssertEqual(mall.active?.fromMs, 1_773_079_200_000)   // 2026-03-09T18:00:00Z
        XCTAssertEqual(mall.active?.untilMs, 1_773_471_600_000)  // 2026-03-14T07:00:00Z
        let lz = try campaign(r, "lorrenzillos")
        XCTAssertEqual(lz.active?.fromMs, 1_772_352_000_000)     // 2026-03-01T08:00:00Z (PST)
        XCTAssertNil(lz.active?.untilMs)
        XCTAssertNil(try campaign(r, "fitness-fuel").active)
    }

    func testRulesAndOffers() throws {
        let r = try load()
        let cars = try campaign(r, "car-shoppers")
        guard case .visited(let v) = try rule(cars, "three-dealers").condition else { return XCTFail("not visited") }
        XCTAssertEqual(v.selector, RegionSelector(tags: ["car-dealer"]))
        XCTAssertEqual(v.atLeast, 3)
        XCTAssertTrue(v.distinct)
        XCTAssertEqual(v.withinMs, 72 * 3_600_000)
        XCTAssertEqual(v.minDwellMs, 300_000)
        XCTAssertEqual(try rule(cars, "three-dealers").description, "Visited three different car dealers within 72 hours")
        XCTAssertEqual(cars.offers.map(\.id), ["test-drive", "service-plan"])
        XCTAssertEqual(cars.offers[0].cap, Cap(count: 1, perMs: 7 * 86_400_000))
        XCTAssertEqual(cars.offers[0].priority, 10)
        XCTAssertEqual(cars.offers[1].cap, Cap(count: 1, perMs: nil))
        XCTAssertEqual(cars.offers[1].message, "Three years of service, on us")

        let fit = try campaign(r, "fitness-fuel")
        guard case .sequence(let s) = try rule(fit, "post-workout").condition else { return XCTFail("not sequence") }
        XCTAssertEqual(s.steps.map(\.selector.regions), [["gym"], ["juice-bar"]])
        XCTAssertEqual(s.steps.map(\.minDwellMs), [1_800_000, 0])
        XCTAssertEqual(s.withinMs, 7_200_000)
        guard case .all(let eb) = try rule(fit, "early-bird").condition, case .during(let d) = eb[1] else { return XCTFail("early-bird shape") }
        XCTAssertEqual(d.days, Set(1...7))
        XCTAssertEqual(d.startMinute, 300)
        XCTAssertEqual(d.endMinute, 420)
        XCTAssertEqual(d.timezone, "America/Los_Angeles")
        guard case .all(let wj) = try rule(fit, "weekend-juice").condition, case .during(let wd) = wj[1] else { return XCTFail("weekend-juice shape") }
        XCTAssertEqual(wd.days, [6, 7])
        XCTAssertEqual(wd.timezone, "UTC")
        guard case .any(let fan) = try rule(fit, "fan").condition, case .visited(let fv) = fan[1] else { return XCTFail("fan shape") }
        XCTAssertEqual(fv.withinMs, 5_400_000)
        XCTAssertEqual(fit.offers.first { $0.id == "fan-club" }?.cap, Cap(count: 1))
        guard case .all(let mb) = try rule(fit, "mall-browse").condition, case .not(.inside(let ni)) = mb[1] else { return XCTFail("mall-browse shape") }
        XCTAssertEqual(ni.selector.regions, ["juice-bar"])

        let lz = try campaign(r, "lorrenzillos")
        guard case .all(let cl) = try rule(lz, "competitor-lunch").condition,
              case .dwelled(let dw) = cl[0], case .during(let ld) = cl[1] else { return XCTFail("competitor-lunch shape") }
        XCTAssertEqual(dw.overMs, 900_000)
        XCTAssertEqual(ld.days, [1, 2, 3, 4, 5])
        XCTAssertEqual(ld.startMinute, 690)
        XCTAssertEqual(ld.endMinute, 840)
        XCTAssertEqual(ld.timezone, "America/Los_Angeles", "during defaults to the campaign's active.timezone")
        guard case .all(let no) = try rule(lz, "night-owl").condition, case .during(let nd) = no[1] else { return XCTFail("night-owl shape") }
        XCTAssertEqual([nd.startMinute, nd.endMinute], [1320, 120])
        XCTAssertEqual(nd.days, [3, 4, 5])
        guard case .visited(let reg) = try rule(lz, "regular").condition else { return XCTFail("regular shape") }
        XCTAssertEqual(reg.withinMs, 7 * 86_400_000)
    }

    func testSettings() throws {
        let s = try load().campaignSet.settings
        XCTAssertEqual(s.perUserLimit, Cap(count: 3, perMs: 86_400_000))
        XCTAssertEqual(s.tracking, Tracking(hysteresisM: 20, maxGapMs: 1_800_000))
    }

    func testAutoInsuranceTracking() throws {
        let c = try campaign(try load(), "auto-insurance")
        XCTAssertEqual(c.tracking, Tracking(hysteresisM: 25, confirmMs: 30_000, maxAccuracyM: 80, maxGapMs: 1_200_000))
        XCTAssertEqual(c.file, Self.campaignsDir + "/auto-insurance.yml")
    }
}
