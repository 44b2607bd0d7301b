import Foundation
import ProcessHarness
import Testing

/// The harness's waits end: a program past its time, one that ignores SIGTERM, and
/// output held open by a process left behind each end the wait with a failure, so
/// that a hung test fails instead of holding its run until CI's limit.
@Suite("Bounded waits of the process harness")
struct BoundedWaitTests {
    @Test func aProgramPastItsTimeIsStoppedAndNamed() {
        #expect {
            try ProcessRunner.run(["sleep", "30"], timeout: 1)
        } throws: { error in
            "\(error)" == "sleep 30 did not finish in 1 s and was stopped"
        }
    }

    /// SIGTERM ignored (as in a child that inherits a blocked mask): SIGKILL follows.
    @Test func aProgramThatIgnoresTerminationIsKilled() {
        let child = try? ChildProcess(["sh", "-c", "trap '' TERM; echo ready; while :; do sleep 0.1; done"])
        #expect(child?.waitFor(seconds: 20) { stdout, _ in stdout.contains("ready") } == true)
        #expect(child?.wait(seconds: 0.5) == SIGKILL)
    }

    /// The process left behind closes every descriptor but its standard streams, as a daemon
    /// does, and keeps the run's output open. It finds them in /proc/self/fd, where they can
    /// number above 1023.
    @Test func outputHeldByAProcessLeftBehindIsGivenUp() {
        #expect {
            try ProcessRunner.run(["sh", "-c", "perl -MPOSIX -e 'opendir(my $d, q{/proc/self/fd}); my @fds = grep { /^\\d+$/ && $_ > 2 } readdir($d); closedir($d); POSIX::close($_) for @fds; sleep 15' & echo started"])
        } throws: { error in
            "\(error)" == "sh exited, but a process it started still holds its output open"
        }
    }

    @Test func waitingForAnExitEndsWithTheAnswerAndNothingLeftRunning() throws {
        let quick = try ProcessRunner.start(["true"])
        #expect(ProcessRunner.waitForExit(quick, seconds: 30))
        let stuck = try ProcessRunner.start(["sleep", "30"])
        #expect(!ProcessRunner.waitForExit(stuck, seconds: 0.5))
        #expect(!stuck.isRunning)
    }

    @Test func aProgramThatEndsInTimeGivesItsOutput() throws {
        let output = try ProcessRunner.run(["sh", "-c", "echo out; echo err >&2; exit 3"], timeout: 30)
        #expect(output.status == 3 && output.stdout == "out\n" && output.stderr == "err\n")
    }

    /// Children lose only stdbuf's preload, which the test runner runs under.
    @Test func childrenLoseOnlyTheTestRunnersLineBuffering() throws {
        let given = ["LD_PRELOAD": "/usr/libexec/coreutils/libstdbuf.so:/opt/keep.so", "_STDBUF_O": "L", "_STDBUF_E": "L",
                     "PULSE_SERVER": "unix:/tmp/s"]
        #expect(ProcessRunner.childEnvironment(given) == ["LD_PRELOAD": "/opt/keep.so", "PULSE_SERVER": "unix:/tmp/s"])
        #expect(ProcessRunner.childEnvironment(["LD_PRELOAD": "/usr/libexec/coreutils/libstdbuf.so"]).isEmpty)
        let printed = try ProcessRunner.run(["env"], environment: given).stdout.split(separator: "\n")
        #expect(printed.contains("LD_PRELOAD=/opt/keep.so") && !printed.contains { $0.hasPrefix("_STDBUF_") })
    }
}
