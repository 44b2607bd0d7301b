import Logging

/// The Wyoming module's log (`parley.wyoming`): each utterance sent and answered, a server that
/// failed, a voice's first audio. Debug lines only; what a person must know is said on the
/// conversation's events.
let wyomingLog = Logger(label: "parley.wyoming")
