#define _GNU_SOURCE
#include <fcntl.h>
#include <spawn.h>
#include <unistd.h>

#include "process_spawn.h"

int parley_pipe_cloexec(int fds[2]) {
    return pipe2(fds, O_CLOEXEC);
}

int parley_spawn_close_from(posix_spawn_file_actions_t *actions, int lowest) {
    return posix_spawn_file_actions_addclosefrom_np(actions, lowest);
}
