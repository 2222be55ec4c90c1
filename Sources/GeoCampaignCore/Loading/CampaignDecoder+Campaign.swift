import Foundation

extension CampaignDecoder {
    static let campaignKeys = ["campaign", "name", "active", "holdout", "tracking", "regions", "rules", "offers", "goal"]

    func decodeCampaign(_ f: Fields) -> Content {
        checkKeys(f, known: Self.campaignKeys + (f.has("settings") ? ["settings"] : []), in: "a campaign")
        let idKey = f.key("campaign")
        let idMark = idKey?.mark ?? f.mark
        var id = ""
        if let n = f["campaign"], let s = scalar(n, "campaign", example: "spring-sale") {
            id = s
            let allowed = s.unicodeScalars.allSatisfy { ($0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0))) || $0 == "-" || $0 == "_" || $0 == "." }
            if s.isEmpty {
                error(n.mark, "the campaign id is empty: write a name of letters, digits, '-', '_' or '.', e.g. campaign: spring-sale")
            } else if !allowed {
                var fixed = ""
                for u in s.unicodeScalars {
                    let ok = (u.isASCII && (u.properties.isAlphabetic || ("0"..."9").contains(u))) || u == "-" || u == "_" || u == "."
                    if ok {
                        fixed.append(Character(u))
                    } else if !fixed.isEmpty && !fixed.hasSuffix("-") {
                        fixed.append("-")
                    }
                }
                while fixed.hasSuffix("-") { fixed.removeLast() }
                if fixed.isEmpty { fixed = "my-campaign" }
                error(n.mark, "campaign id '\(s)' may only use letters, digits, '-', '_' and '.': write for example '\(fixed)'")
            }
        } else if let k = idKey {
            error(k.mark, "the campaign id is empty: write a name of letters, digits, '-', '_' or '.', e.g. campaign: spring-sale")
        }
        var campaign = Campaign(id: id, regions: [], rules: [], offers: [], file: file.path)
        if let n = f["name"] { campaign.name = scalar(n, "name", example: "Spring sale") }
        let scope = CampaignScope()
        if hashesSources {
            var h = BatchHash.start
            file.addBytes(to: &h)
            scope.sourceHash = h
        }
        if let n = f["active"] { campaign.active = decodeActive(n) }
        scope.timezone = campaign.active?.timezone ?? "UTC"
        if let n = f["holdout"], let s = scalar(n, "holdout", example: "10%") {
            do {
                let v = try ValueParser.percent(s)
                if (0...50).contains(v) {
                    campaign.holdoutPercent = v
                } else {
                    error(n.mark, "the holdout must be between 0% and 50%, not \(s)")
                }
            } catch {
                self.error(n.mark, "holdout: \(error.message)")
            }
        }
        if let n = f["tracking"] { campaign.tracking = decodeTracking(n) }

        let regionList = list(f, "regions", idMark, example: "regions: [ { id: store, circle: { center: \"37.70, -121.75\", radius: 150m } } ]")
        if regionList.isEmpty { scope.regionsIncomplete = true }
        for (i, item) in regionList.enumerated() { decodeRegionEntry(item, index: i, scope: scope) }
        let offerList = list(f, "offers", idMark, example: "offers: [ { id: coupon, message: 10% off today } ]")
        if offerList.isEmpty { scope.offersMissing = true }
        var offers: [Offer] = []
        for item in offerList {
            if let o = decodeOffer(item, scope: scope) { offers.append(o) }
        }
        let ruleList = list(f, "rules", idMark, example: "rules: [ { id: visit, when: { inside: { regions: [store] } }, offer: coupon } ]")
        var rules: [Rule] = []
        var ruleIds: [String: SourceMark] = [:]
        var usedOffers: Set<String> = []
        for item in ruleList {
            if let r = decodeRule(item, scope: scope, ruleIds: &ruleIds) {
                rules.append(r)
                usedOffers.insert(r.offer)
            }
        }
        if let n = f["goal"] { campaign.goal = decodeGoal(n, scope: scope) } else if let k = f.key("goal") { emptyGoal(k.mark) }
        campaign.regions = scope.regions
        if let h = scope.sourceHash { campaign.sourceHash = CampaignFingerprint.hex(h.0) + CampaignFingerprint.hex(h.1) }
        for p in pendingZones { reportFixedOffset(p, regions: scope.regions) }
        pendingZones = []
        warnFarRegions(scope, zone: campaign.active?.timezone)
        campaign.rules = rules
        campaign.offers = offers
        if !scope.rulesIncomplete && !ruleList.isEmpty {
            for o in offers where !usedOffers.contains(o.id) {
                if let m = scope.offerIds[o.id] {
                    warning(m, "no rule names the offer '\(o.id)', so it is never sent: name it in a rule's offer, or remove it")
                }
            }
            warnUnusedRegions(scope)
        }
        return .campaign(campaign, idMark: idMark)
    }

    /// The items of a required, non-empty list.
    func list(_ f: Fields, _ key: String, _ campaignMark: SourceMark, example: String) -> [YAMLNode] {
        guard let n = f[key] else {
            if let k = f.key(key) {
                error(k.mark, "'\(key)' is empty: a campaign needs at least one; write for example \(example)")
            } else {
                error(campaignMark, "this campaign has no '\(key)': add at least one, e.g. \(example)")
            }
            return []
        }
        guard let items = n.items else {
            error(n.mark, "'\(key)' takes a list whose items start with '- ', not \(n.kindWord)")
            return []
        }
        if items.isEmpty {
            error(n.mark, "'\(key)' is empty: a campaign needs at least one; write for example \(example)")
        }
        return items
    }

    func decodeActive(_ node: YAMLNode) -> ActiveWindow? {
        guard let f = fields(node, "'active'", example: "active: { from: 2026-03-01, until: 2026-06-01, timezone: America/Los_Angeles }") else { return nil }
        checkKeys(f, known: ["from", "until", "timezone"], in: "active")
        var zone = "UTC"
        if let n = f["timezone"], let z = timezone(n) { zone = z }
        let tz = TimeZone(identifier: zone) ?? TimeZone(secondsFromGMT: 0) ?? TimeZone.current
        func instant(_ key: String) -> (Int64, String)? {
            guard let n = f[key], let s = scalar(n, key, example: "2026-03-01") else { return nil }
            do {
                switch try ValueParser.dateOrInstant(s) {
                case .instant(let ms):
                    return (ms, s)
                case .date(let y, let m, let d):
                    return (Self.localMidnight(year: y, month: m, day: d, in: tz), s)
                }
            } catch {
                self.error(n.mark, "\(key): \(error.message)")
                return nil
            }
        }
        let from = instant("from")
        let until = instant("until")
        if let a = from, let b = until, b.0 <= a.0, let n = f["until"] {
            error(n.mark, "active.until (\(b.1)) must be after from (\(a.1)): the campaign would never run")
        }
        return ActiveWindow(fromMs: from?.0, untilMs: until?.0, timezone: zone)
    }

    /// Unix ms of local midnight of a date in a zone; a midnight skipped by a clock change is
    /// the instant the clocks jump to.
    static func localMidnight(year: Int64, month: Int64, day: Int64, in tz: TimeZone) -> Int64 {
        let utcMidnight = Timestamp.days(year: year, month: month, day: day) * 86_400
        // Try the offsets in effect around that day; take the earliest instant that maps to local midnight.
        var candidates: [Int64] = []
        for probe in [utcMidnight - 86_400, utcMidnight, utcMidnight + 86_400] {
            let off = Int64(tz.secondsFromGMT(for: Date(timeIntervalSince1970: TimeInterval(probe))))
            let t = utcMidnight - off
            let offAtT = Int64(tz.secondsFromGMT(for: Date(timeIntervalSince1970: TimeInterval(t))))
            if t + offAtT == utcMidnight { candidates.append(t) }
        }
        if let best = candidates.min() { return best * 1000 }
        // Midnight does not exist: the first instant after the jump.
        let before = Int64(tz.secondsFromGMT(for: Date(timeIntervalSince1970: TimeInterval(utcMidnight - 86_400))))
        var t = utcMidnight - before
        if let next = tz.nextDaylightSavingTimeTransition(after: Date(timeIntervalSince1970: TimeInterval(t - 86_400))) {
            t = Int64(next.timeIntervalSince1970)
        }
        return t * 1000
    }

    func decodeOffer(_ node: YAMLNode, scope: CampaignScope) -> Offer? {
        guard let f = fields(node, "an offer", example: "- { id: coupon, priority: 5, cap: 1 per 7d, message: 10% off }") else { return nil }
        checkKeys(f, known: ["id", "priority", "cap", "message"], in: "an offer")
        guard let idNode = f["id"], let id = scalar(idNode, "id", example: "coupon") else {
            error(f.mark, "this offer has no id: add id: <name> so that rules can name it")
            return nil
        }
        guard checkName(id, idNode.mark, "an offer id") else { return nil }
        if let first = scope.offerIds[id] {
            error(idNode.mark, "the offer id '\(id)' is already used on line \(first.line): give each offer its own id")
        } else {
            scope.offerIds[id] = idNode.mark
        }
        var offer = Offer(id: id)
        if let n = f["priority"], let s = scalar(n, "priority", example: "10") {
            if let v = ValueParser.integer(s) {
                offer.priority = v
            } else {
                error(n.mark, "priority: '\(s)' is not a whole number: write for example priority: 10 (higher wins)")
            }
        }
        if let n = f["cap"], let s = scalar(n, "cap", example: "1 per 7d") {
            do {
                offer.cap = try ValueParser.cap(s)
            } catch {
                self.error(n.mark, "cap: \(error.message)")
            }
        }
        if let n = f["message"] { offer.message = scalar(n, "message", example: "10% off today") }
        return offer
    }
}
