import CProcessSpawn
#if canImport(Glibc)
import Glibc
#endif

extension SpawnedProcess {
    /// `posix_spawnp` of `arguments` in a new process group, with `streams` as its standard
    /// input, output and error and every other descriptor closed. Returns the child's pid.
    static func spawn(_ arguments: [String], environment: [String: String],
                      streams: (input: Int32, output: Int32, errors: Int32), name: String) throws -> pid_t {
        guard let program = arguments.first else { throw ChildProcessFailure(name, .couldNotStart("no program named")) }
        var actions = posix_spawn_file_actions_t()
        var attributes = posix_spawnattr_t()
        posix_spawn_file_actions_init(&actions)
        posix_spawnattr_init(&attributes)
        defer {
            posix_spawn_file_actions_destroy(&actions)
            posix_spawnattr_destroy(&attributes)
        }
        posix_spawn_file_actions_adddup2(&actions, streams.input, 0)
        posix_spawn_file_actions_adddup2(&actions, streams.output, 1)
        posix_spawn_file_actions_adddup2(&actions, streams.errors, 2)
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

    /// Own process group; default signal dispositions (SIGPIPE is ignored in Parley) and an empty mask.
    private static func configure(_ attributes: inout posix_spawnattr_t) {
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK))
        posix_spawnattr_setpgroup(&attributes, 0)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for signal in [SIGPIPE, SIGINT, SIGQUIT, SIGTERM] { sigaddset(&defaults, signal) }
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        var mask = sigset_t()
        sigemptyset(&mask)
        posix_spawnattr_setsigmask(&attributes, &mask)
    }
}
