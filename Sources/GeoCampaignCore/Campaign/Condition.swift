/// A rule condition: exactly one kind per YAML mapping (formats.md 1.3, semantics 3).
public indirect enum Condition: Sendable {
    /// Inside a matching region now.
    case inside(InsideCondition)
    /// Enough qualifying visits in the trailing window.
    case visited(VisitedCondition)
    /// The current visit has lasted more than `over`.
    case dwelled(DwelledCondition)
    /// Visits in this order within the window.
    case sequence(SequenceCondition)
    /// A weekly wall-clock window.
    case during(DuringCondition)
    /// Intersection.
    case all([Condition])
    /// Union.
    case any([Condition])
    /// Complement within the user's timeline.
    case not(Condition)
}
