import Synchronization

/// A hold a test puts on a fake's call: while it is on, callers of `pass()`
/// wait until `release()`, so the test can act while the call is in progress.
final class CallHold: Sendable {
    private let state = Mutex<(isOn: Bool, waiters: [CheckedContinuation<Void, Never>])>((false, []))

    /// Puts the hold on or takes it off; taking it off does not let the waiting calls go.
    func set(_ on: Bool) { state.withLock { $0.isOn = on } }

    /// Takes the hold off and lets every waiting call go on.
    func release() {
        let waiters = state.withLock { state in
            state.isOn = false
            defer { state.waiters = [] }
            return state.waiters
        }
        waiters.forEach { $0.resume() }
    }

    /// Returns at once without a hold; with one, when it is released.
    func pass() async {
        guard state.withLock({ $0.isOn }) else { return }
        await withCheckedContinuation { continuation in
            let waits = state.withLock { state in
                if state.isOn { state.waiters.append(continuation) }
                return state.isOn
            }
            if !waits { continuation.resume() }
        }
    }
}
