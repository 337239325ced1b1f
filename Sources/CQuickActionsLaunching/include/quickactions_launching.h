/* Starting an installed application so that it belongs to nobody but itself: what happens
 * between fork and exec, where a multithreaded process (the broker) may only make
 * async-signal-safe calls, is written here in C. */
#ifndef QUICKACTIONS_LAUNCHING_H
#define QUICKACTIONS_LAUNCHING_H

#include <sys/types.h>

/* Which step of qa_launch_detached failed. */
enum qa_launch_step {
    QA_LAUNCH_OK = 0,
    QA_LAUNCH_PIPE = 1,     /* pipe2 in the caller */
    QA_LAUNCH_FORK = 2,     /* the first or the second fork */
    QA_LAUNCH_SESSION = 3,  /* setsid in the middle process */
    QA_LAUNCH_STDIO = 4,    /* opening /dev/null or dup2 onto 0, 1, 2 */
    QA_LAUNCH_CHDIR = 5,    /* chdir(directory) */
    QA_LAUNCH_EXEC = 6,     /* execve(path) */
    QA_LAUNCH_LOST = 7,     /* the middle process ended without saying what happened */
};

/* Starts `path` (absolute: no PATH lookup happens here) with `argv` and `envp` (both
 * NULL-terminated), detached: a first child makes a new session (setsid) and forks the
 * program's process, then exits at once and is reaped here, so the program is nobody's child
 * (the init process or the nearest subreaper reaps it) and outlives the caller. The program
 * runs in `directory` when it is not NULL, with standard input, output and error on
 * /dev/null, every other descriptor closed, an empty signal mask and every signal's
 * disposition at its default.
 *
 * MUST be given an absolute `path`. Blocks until the program's process has executed (or
 * failed to). Returns QA_LAUNCH_OK and sets *pid to the program's process id; otherwise
 * returns the step that failed and sets *error to its errno value (and *pid to the process
 * id when one was made). */
int qa_launch_detached(const char *path, char *const argv[], char *const envp[], const char *directory,
                       pid_t *pid, int *error);

#endif
