extension CampaignDecoder {
    static let conditionKinds = ["inside", "visited", "dwelled", "sequence", "during", "all", "any", "not"]

    func decodeRule(_ node: YAMLNode, scope: CampaignScope, ruleIds: inout [String: SourceMark]) -> Rule? {
        guard let f = fields(node, "a rule", example: "- { id: visit, when: { inside: { regions: [store] } }, offer: coupon }") else {
            scope.rulesIncomplete = true
            return nil
        }
        checkKeys(f, known: ["id", "description", "when", "offer"], in: "a rule")
        var id: String?
        if let n = f["id"], let s = scalar(n, "id", example: "visit") {
            if checkName(s, n.mark, "a rule id") {
                if let first = ruleIds[s] {
                    error(n.mark, "the rule id '\(s)' is already used on line \(first.line): give each rule its own id")
                } else {
                    ruleIds[s] = n.mark
                }
                id = s
            }
        } else {
            error(f.mark, "this rule has no id: add id: <name>, e.g. id: thank-visitors")
        }
        let label = id.map { "rule '\($0)'" } ?? "this rule"
        let description = f["description"].flatMap { scalar($0, "description", example: "Visited the store") }
        var condition: Condition?
        if let n = f["when"] {
            condition = decodeCondition(n, scope: scope)
            if let c = condition, !Self.needsRegion(c), let k = f.key("when") {
                warning(k.mark, "\(label) uses only not/during, so it fires for every user at their first location fix: add a region condition such as inside: { tags: [...] } under all:")
            }
        } else {
            error(f.key("when")?.mark ?? f.mark, "\(label) has no 'when': add the condition that triggers it, e.g. when: { inside: { tags: [competitor] } }")
        }
        var offer: String?
        if let n = f["offer"], let s = scalar(n, "offer", example: "coupon") {
            if scope.offerIds[s] != nil {
                offer = s
            } else if scope.offersMissing {
                // The campaign has no offers: said once, at the campaign.
            } else {
                let known = Array(scope.offerIds.keys).sorted()
                if let near = EditDistance.suggestion(for: s, among: known) {
                    error(n.mark, "no offer '\(s)' in this campaign: did you mean '\(near)'?")
                } else if known.isEmpty {
                    error(n.mark, "no offer '\(s)' in this campaign: add it under offers:")
                } else {
                    error(n.mark, "no offer '\(s)' in this campaign: the offers are \(known.joined(separator: ", "))")
                }
            }
        } else if let when = f["when"], Self.hasKey(when, "offer") {
            // Indented into the condition: reported there, where it is.
        } else if !scope.offersMissing {
            error(f.key("offer")?.mark ?? f.mark, "\(label) has no 'offer': add offer: <id of one of this campaign's offers>")
        }
        guard let id, let condition, let offer else {
            scope.rulesIncomplete = true
            return nil
        }
        return Rule(id: id, description: description, condition: condition, offer: offer)
    }

    /// Whether a mapping in `node` (at any depth) has the key `key`.
    static func hasKey(_ node: YAMLNode, _ key: String) -> Bool {
        switch node.kind {
        case .scalar: return false
        case .sequence(let items): return items.contains { hasKey($0, key) }
        case .mapping(let pairs): return pairs.contains { $0.key.scalar == key || hasKey($0.value, key) }
        }
    }

    /// Whether a condition has a region condition (inside, visited, dwelled, sequence) outside
    /// any `not`; one made only of `not`/`during` holds for every user at their first fix.
    static func needsRegion(_ c: Condition) -> Bool {
        switch c {
        case .inside, .visited, .dwelled, .sequence: return true
        case .during, .not: return false
        case .all(let cs), .any(let cs): return cs.contains(where: needsRegion)
        }
    }

    func decodeCondition(_ node: YAMLNode, scope: CampaignScope) -> Condition? {
        let kinds = Self.conditionKinds.joined(separator: ", ")
        guard let allPairs = node.pairs else {
            if node.items != nil {
                error(node.mark, "a condition is one mapping, not a list: to require every item of the list, put it under all: (or any: for one of them)")
            } else if let s = node.scalar, Self.conditionKinds.contains(s) {
                error(node.mark, "'\(s)' needs its fields: write for example \(s): { ... } (see the campaign format guide)")
            } else {
                error(node.mark, "a condition must be a mapping with one of \(kinds), not \(node.kindWord)")
            }
            return nil
        }
        // Keys of the rule indented into its condition: said once each, the rest decoded.
        let ruleKeys = ["offer", "id", "description", "when"]
        for p in allPairs {
            guard let k = p.key.scalar, ruleKeys.contains(k) else { continue }
            error(p.key.mark, "'\(k)' belongs to the rule, not to its condition: indent it like the rule's when:, not under it")
        }
        let misplaced = allPairs.contains { ruleKeys.contains($0.key.scalar ?? "") }
        let pairs = misplaced ? allPairs.filter { !ruleKeys.contains($0.key.scalar ?? "") } : allPairs
        if misplaced && pairs.isEmpty { return nil }
        guard let first = pairs.first, let kind = first.key.scalar else {
            error(node.mark, "this condition is empty: write one of \(kinds)")
            return nil
        }
        if pairs.count > 1 {
            let second = pairs[1]
            if Self.conditionKinds.contains(second.key.scalar ?? "") {
                error(second.key.mark, "a condition holds one kind only, and this one already has '\(kind)': to require both, list them under all: [ ... ] (or any: for either)")
            } else {
                error(second.key.mark, "unexpected '\(second.key.scalar ?? "")' next to '\(kind)': a condition holds exactly one kind; move it inside '\(kind)' or remove it")
            }
        }
        let value = first.value
        switch kind {
        case "inside":
            guard let f = conditionFields(value, kind) else { return nil }
            checkKeys(f, known: ["regions", "tags"], in: "an inside condition")
            guard let sel = selector(f, kind, scope: scope) else { return nil }
            return .inside(InsideCondition(selector: sel))
        case "visited":
            guard let f = conditionFields(value, kind) else { return nil }
            checkKeys(f, known: ["regions", "tags", "at_least", "distinct", "within", "min_dwell"], in: "a visited condition")
            let sel = selector(f, kind, scope: scope)
            var c = VisitedCondition(selector: sel ?? RegionSelector())
            var ok = sel != nil
            if let n = f["at_least"], let s = scalar(n, "at_least", example: "3") {
                if let v = ValueParser.integer(s), v >= 1 { c.atLeast = v } else {
                    error(n.mark, "at_least must be a whole number of 1 or more, e.g. at_least: 3")
                    ok = false
                }
            }
            if let n = f["distinct"], let s = scalar(n, "distinct", example: "true") {
                do { c.distinct = try ValueParser.bool(s) } catch {
                    self.error(n.mark, "distinct: \(error.message) (true counts different regions, false counts visits)")
                    ok = false
                }
            }
            if let n = f["within"] {
                if let v = duration(n, "within"), v > 0 { c.withinMs = v } else {
                    if let s = n.scalar, (try? ValueParser.duration(s)) == 0 { error(n.mark, "within must be longer than 0s, e.g. within: 72h") }
                    ok = false
                }
            }
            if let n = f["min_dwell"] {
                if let v = duration(n, "min_dwell") { c.minDwellMs = v } else { ok = false }
            }
            return ok ? .visited(c) : nil
        case "dwelled":
            guard let f = conditionFields(value, kind) else { return nil }
            checkKeys(f, known: ["regions", "tags", "over"], in: "a dwelled condition")
            let sel = selector(f, kind, scope: scope)
            guard let n = f["over"] else {
                error(first.key.mark, "dwelled needs 'over', how long the visit must last: e.g. dwelled: { tags: [competitor], over: 10m }")
                return nil
            }
            guard let over = duration(n, "over"), let sel else { return nil }
            return .dwelled(DwelledCondition(selector: sel, overMs: over))
        case "sequence":
            guard let f = conditionFields(value, kind) else { return nil }
            checkKeys(f, known: ["steps", "within"], in: "a sequence condition")
            var steps: [SequenceCondition.Step] = []
            var ok = true
            if let sn = f["steps"] {
                if let items = sn.items {
                    if items.count < 2 {
                        error(sn.mark, "a sequence needs 2 or more steps (for one step, use visited)")
                        ok = false
                    }
                    for item in items {
                        guard let sf = fields(item, "a step", example: "- { regions: [gym], min_dwell: 30m }") else { ok = false; continue }
                        checkKeys(sf, known: ["regions", "tags", "min_dwell"], in: "a sequence step")
                        let sel = selector(sf, "a step", scope: scope)
                        var step = SequenceCondition.Step(selector: sel ?? RegionSelector())
                        if let n = sf["min_dwell"] {
                            if let v = duration(n, "min_dwell") { step.minDwellMs = v } else { ok = false }
                        }
                        if sel == nil { ok = false }
                        steps.append(step)
                    }
                } else {
                    error(sn.mark, "'steps' takes a list of steps, e.g. steps: [ { regions: [gym] }, { regions: [juice-bar] } ]")
                    ok = false
                }
            } else {
                error(first.key.mark, "sequence needs 'steps': a list of 2 or more { regions/tags, min_dwell } in order")
                ok = false
            }
            var within: Int64?
            if let n = f["within"] {
                within = duration(n, "within")
                if within == 0 {
                    error(n.mark, "within must be longer than 0s, e.g. within: 2h")
                    within = nil
                }
            } else {
                error(first.key.mark, "sequence needs 'within', the time allowed from the first step to the last: e.g. within: 2h")
            }
            guard ok, let within else { return nil }
            return .sequence(SequenceCondition(steps: steps, withinMs: within))
        case "during":
            guard let f = conditionFields(value, kind) else { return nil }
            checkKeys(f, known: ["days", "hours", "timezone"], in: "a during condition")
            var c = DuringCondition(timezone: scope.timezone)
            var ok = true
            if let n = f["days"], let items = scalarList(n, "days", example: "[mon-fri] or [sat, sun]") {
                var days = Set<Int>()
                for (s, m) in items {
                    do { days.formUnion(try ValueParser.weekdays(s)) } catch {
                        self.error(m, error.message)
                        ok = false
                    }
                }
                if items.isEmpty {
                    error(n.mark, "'days' is empty: list at least one day, or leave days out for every day")
                    ok = false
                }
                c.days = days
            } else if f["days"] != nil {
                ok = false
            }
            if let n = f["hours"], let s = scalar(n, "hours", example: "\"11:30-14:00\"") {
                do {
                    let (a, b) = try ValueParser.hours(s)
                    c.startMinute = a
                    c.endMinute = b
                } catch {
                    self.error(n.mark, error.message)
                    ok = false
                }
            }
            if let n = f["timezone"] {
                if let z = timezone(n) { c.timezone = z } else { ok = false }
            }
            return ok ? .during(c) : nil
        case "all", "any":
            guard let items = value.items else {
                error(value.mark, "'\(kind)' takes a list of conditions, one per line starting with '- '")
                return nil
            }
            if items.isEmpty {
                error(value.mark, "'\(kind)' is empty: list at least one condition")
                return nil
            }
            var out: [Condition] = []
            var ok = true
            for item in items {
                if let c = decodeCondition(item, scope: scope) { out.append(c) } else { ok = false }
            }
            guard ok else { return nil }
            return kind == "all" ? .all(out) : .any(out)
        case "not":
            if value.items != nil {
                error(value.mark, "'not' takes one condition, not a list: to negate several, write not: { any: [ ... ] }")
                return nil
            }
            if value.isNull {
                error(first.key.mark, "'not' is empty: write the condition to negate, e.g. not: { inside: { tags: [own-store] } }")
                return nil
            }
            guard let c = decodeCondition(value, scope: scope) else { return nil }
            return .not(c)
        default:
            if let s = EditDistance.suggestion(for: kind, among: Self.conditionKinds) {
                error(first.key.mark, "unknown condition '\(kind)': did you mean '\(s)'?")
            } else {
                error(first.key.mark, "unknown condition '\(kind)': write one of \(kinds)")
            }
            return nil
        }
    }

    private func conditionFields(_ value: YAMLNode, _ kind: String) -> Fields? {
        if value.isNull {
            error(value.mark, "'\(kind)' is empty: say which regions, e.g. \(kind): { tags: [competitor] }")
            return nil
        }
        return fields(value, "'\(kind)'", example: "\(kind): { tags: [competitor] }")
    }

    /// The `regions`/`tags` of a condition, checked against the campaign's regions.
    func selector(_ f: Fields, _ kind: String, scope: CampaignScope) -> RegionSelector? {
        var sel = RegionSelector()
        var ok = true
        if let n = f["regions"], let items = scalarList(n, "regions", example: "[store, outlet]") {
            for (s, m) in items {
                if !scope.regionsIncomplete && scope.regionIds[s] == nil {
                    let known = scope.regionIds.keys.sorted()
                    if let near = EditDistance.suggestion(for: s, among: known) {
                        error(m, "no region '\(s)' in this campaign: did you mean '\(near)'?")
                    } else if scope.tags.contains(s) {
                        error(m, "no region '\(s)' in this campaign, but it is a tag: write tags: [\(s)]")
                    } else {
                        error(m, "no region '\(s)' in this campaign: check the spelling, or add a region with id: \(s)")
                    }
                    ok = false
                }
                sel.regions.append(s)
            }
        } else if f["regions"] != nil {
            ok = false
        }
        if let n = f["tags"], let items = scalarList(n, "tags", example: "[competitor]") {
            for (s, m) in items {
                if !scope.regionsIncomplete && !scope.tags.contains(s) {
                    if let near = EditDistance.suggestion(for: s, among: scope.tags.sorted()) {
                        error(m, "no region has the tag '\(s)': did you mean '\(near)'?")
                    } else if scope.regionIds[s] != nil {
                        error(m, "no region has the tag '\(s)', but it is a region id: write regions: [\(s)]")
                    } else {
                        error(m, "no region has the tag '\(s)': add it to a region's tags, or check the spelling")
                    }
                    ok = false
                }
                sel.tags.append(s)
            }
        } else if f["tags"] != nil {
            ok = false
        }
        if f["regions"] == nil && f["tags"] == nil || (ok && sel.regions.isEmpty && sel.tags.isEmpty) {
            let where_ = kind == "a step" ? "this step" : "'\(kind)'"
            error(f.mark, "say which regions \(where_) is about: add regions: [ids] or tags: [tags]")
            return nil
        }
        scope.selectors.append(sel)
        return ok ? sel : nil
    }
}
