import CProcessSpawn
#if canImport(Glibc)
import Glibc
#endif

extension SpawnedProcess {
    /// Where one of a child's standard streams goes.
    public enum Stream: Sendable, Equatable {
        /// A pipe to the parent, whose end is `input`, `output` or `errors`.
        case pipe
        /// /dev/null: the child reads the end at once, and what it writes is thrown away.
        case discarded
        /// A descriptor of the caller's (from 3 up), which the child gets a copy of: a
        /// pseudo-terminal, a file, a pipe the caller made. The caller keeps and closes it.
        case descriptor(Int32)
    }

    /// `posix_spawnp` of `arguments` in a new process group, with `streams` (none of them
    /// `.pipe`) as its standard input, output and error and every other descriptor closed.
    /// Returns the child's pid.
    static func spawn(_ arguments: [String], environment: [String: String], streams: [Stream], name: String) throws -> pid_t {
        guard let program = arguments.first else { throw ChildProcessFailure(name, .couldNotStart("no program named")) }
        var actions = posix_spawn_file_actions_t()
        var attributes = posix_spawnattr_t()
        posix_spawn_file_actions_init(&actions)
        posix_spawnattr_init(&attributes)
        defer {
            posix_spawn_file_actions_destroy(&actions)
            posix_spawnattr_destroy(&attributes)
        }
        for (number, stream) in streams.enumerated() {
            switch stream {
            case let .descriptor(descriptor):
                posix_spawn_file_actions_adddup2(&actions, descriptor, Int32(number))
            case .discarded, .pipe:
                posix_spawn_file_actions_addopen(&actions, Int32(number), "/dev/null", number == 0 ? O_RDONLY : O_WRONLY, 0)
            }
        }
        parley_spawn_close_from(&actions, 3)
        configure(&attributes)
        let argv = arguments.map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { for pointer in argv + envp { free(pointer) } }
        var pid: pid_t = 0
        let status = posix_spawnp(&pid, program, &actions, &attributes, argv, envp)
        guard status == 0 else {
            throw ChildProcessFailure(name, .couldNotStart("\(program): \(String(cString: strerror(status)))"))
        }
        return pid
    }

    /// Own process group; every signal's default disposition (Parley ignores SIGPIPE, and an
    /// ignored signal would be inherited) and an empty mask.
    private static func configure(_ attributes: inout posix_spawnattr_t) {
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK))
        posix_spawnattr_setpgroup(&attributes, 0)
        var defaults = sigset_t()
        sigfillset(&defaults)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        var mask = sigset_t()
        sigemptyset(&mask)
        posix_spawnattr_setsigmask(&attributes, &mask)
    }
}
