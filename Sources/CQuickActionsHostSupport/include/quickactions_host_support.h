/* What plugin hosts need of Linux that Swift's Glibc module does not export: the host's
 * parent-death signal, and for the broker that starts hosts, closing every other descriptor
 * in the child; for the broker, a stop signal caught without losing a pending one; and for
 * the plugin loader, where a library this process loaded came from. */
#ifndef QUICKACTIONS_HOST_SUPPORT_H
#define QUICKACTIONS_HOST_SUPPORT_H

/* prctl(PR_SET_PDEATHSIG, signal): the kernel sends `signal` to this process when the
 * thread that started it ends. Returns 0, or -1 with errno set. */
int qa_set_parent_death_signal(int signal);

#include <spawn.h>

/* posix_spawn_file_actions_addclosefrom_np(actions, from): the child closes every
 * descriptor from `from` on before it executes. Returns 0 or an error number. */
int qa_spawn_close_from(posix_spawn_file_actions_t *actions, int from);

/* pipe2(fds, O_CLOEXEC). Returns 0, or -1 with errno set. */
int qa_pipe_cloexec(int fds[2]);

/* sigaction(signal) with a handler that does nothing, for a signal every thread blocks and a
 * signalfd reads: delivered nowhere, as with SIG_IGN, but a pending one stays pending (setting
 * SIG_IGN discards it), so the signalfd still reads a signal sent before it existed. Returns
 * 0, or -1 with errno set. */
int qa_catch_signal_without_action(int signal);

/* The path a library already loaded into this process was loaded from, as the dynamic loader
 * found it (its link map's l_name), for a library named `soname` (as in a DT_NEEDED entry, such
 * as "libswiftCore.so"); NULL when no library of that name is loaded. The dynamic loader keeps
 * the string as long as the library stays loaded. Loads nothing (RTLD_NOLOAD), reads no file. */
const char *qa_loaded_library_path(const char *soname);

/* Raises the calling thread's niceness (Linux schedules threads, and setpriority with
 * PRIO_PROCESS and a thread id applies to that thread alone) by `increment`: for a thread of
 * bulk work that must not take CPU from the threads answering calls. Raising needs no
 * privilege. Returns 0, or -1 with errno set. */
int qa_lower_thread_priority(int increment);

/* Grows this process's descriptor table to hold `count` descriptors (at most the soft
 * RLIMIT_NOFILE) by opening and closing one at count - 1. Call it while the process has one
 * thread: Linux grows a table shared by several threads only after an RCU grace period
 * (synchronize_rcu, 6-30 ms measured), and that wait fell on whichever call opened the 65th
 * descriptor, such as a launch's pipe(). Returns 0, or -1 with errno set. */
int qa_reserve_descriptor_table(int count);

#endif
