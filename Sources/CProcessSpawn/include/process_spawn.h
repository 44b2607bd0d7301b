// GNU extensions of glibc that Swift's Glibc module does not expose (it is
// imported without _GNU_SOURCE): close-on-exec pipes and closing every
// inherited descriptor in a spawned child.
#ifndef PARLEY_PROCESS_SPAWN_H
#define PARLEY_PROCESS_SPAWN_H

#include <spawn.h>

/// pipe2(fds, O_CLOEXEC): a pipe whose ends no other child inherits.
int parley_pipe_cloexec(int fds[2]);

/// posix_spawn_file_actions_addclosefrom_np: close every descriptor >= lowest in the child.
int parley_spawn_close_from(posix_spawn_file_actions_t *actions, int lowest);

#endif
