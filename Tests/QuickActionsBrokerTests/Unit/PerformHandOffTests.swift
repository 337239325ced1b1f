import DBus
import QuickActionsHost
import Testing
@testable import QuickActionsBroker

/// A Perform is answered exactly once whichever comes first: the plugin's completion, the end
/// of the hand-over, or the registration of the pending entry.
@Suite struct PerformHandOffTests {
    static let result = ExecutionResult.completed(PerformOutcome(success: true, message: "m"), launched: false)

    static func message(_ result: ExecutionResult?) -> String? {
        guard case .completed(let outcome, _)? = result else { return nil }
        return outcome.message
    }

    @Test func aCompletionDuringTheHandOverIsAnsweredByTheHandOver() {
        let handOff = PerformHandOff()
        #expect(handOff.complete(with: Self.result) == nil, "no entry to answer through yet")
        #expect(Self.message(handOff.completedEarly()) == "m")
        #expect(handOff.register(7) == nil, "already answered: nothing for the entry")
    }

    @Test func aCompletionAfterTheRegistrationGoesThroughTheEntry() {
        let handOff = PerformHandOff()
        #expect(handOff.completedEarly() == nil)
        #expect(handOff.register(7) == nil)
        #expect(handOff.complete(with: Self.result) == 7)
        #expect(handOff.complete(with: Self.result) == nil, "a second completion answers nothing")
    }

    @Test func aCompletionBetweenTheHandOverAndTheRegistrationIsAnsweredByTheRegistration() {
        let handOff = PerformHandOff()
        #expect(handOff.completedEarly() == nil)
        #expect(handOff.complete(with: Self.result) == nil)
        #expect(Self.message(handOff.register(7)) == "m")
    }

    /// Both sides racing on two threads, many times: exactly one of them answers each call.
    @Test func racingSidesAnswerEachCallOnce() async {
        for round in 0..<2_000 {
            let handOff = PerformHandOff()
            async let fromCompletion: Bool = Task.detached { handOff.complete(with: Self.result) != nil }.value
            let byHandOver = handOff.completedEarly() != nil || handOff.register(UInt64(round)) != nil
            let byEntry = await fromCompletion
            #expect(byHandOver != byEntry, "round \(round): answered by the hand-over \(byHandOver), by the entry \(byEntry)")
        }
    }
}
