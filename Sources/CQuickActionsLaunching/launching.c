#define _GNU_SOURCE
#include "quickactions_launching.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* One report from a child to the caller: a step and a value (a pid or an errno). */
struct qa_report {
    int step;
    int value;
};

static void qa_report_write(int fd, int step, int value) {
    struct qa_report report = {step, value};
    ssize_t written;
    do {
        written = write(fd, &report, sizeof report);
    } while (written < 0 && errno == EINTR);
}

static int qa_report_read(int fd, struct qa_report *report) {
    size_t have = 0;
    char *bytes = (char *)report;
    while (have < sizeof *report) {
        ssize_t got = read(fd, bytes + have, sizeof *report - have);
        if (got < 0 && errno == EINTR) continue;
        if (got <= 0) return 0;
        have += (size_t)got;
    }
    return 1;
}

/* The program's process, after the second fork: only async-signal-safe calls. */
static void qa_exec_program(int report, const char *path, char *const argv[], char *const envp[],
                            const char *directory) {
    int null = open("/dev/null", O_RDWR | O_CLOEXEC);
    if (null < 0 || dup2(null, 0) < 0 || dup2(null, 1) < 0 || dup2(null, 2) < 0) {
        qa_report_write(report, QA_LAUNCH_STDIO, errno);
        _exit(127);
    }
    if (directory != NULL && chdir(directory) != 0) {
        qa_report_write(report, QA_LAUNCH_CHDIR, errno);
        _exit(127);
    }
    /* Every descriptor from 3 on closes at exec, the report pipe included: its end of file
     * tells the caller the exec happened. */
    syscall(SYS_close_range, 3U, ~0U, 4U /* CLOSE_RANGE_CLOEXEC */);
    execve(path, argv, envp);
    /* ETXTBSY: some process still has the program open for writing, as a package update
     * or another thread's fork between a write's open and close leaves it for a moment. */
    for (int tries = 0; errno == ETXTBSY && tries < 10; tries++) {
        struct timespec pause = {0, 20 * 1000 * 1000};
        nanosleep(&pause, NULL);
        execve(path, argv, envp);
    }
    qa_report_write(report, QA_LAUNCH_EXEC, errno);
    _exit(127);
}

int qa_launch_detached(const char *path, char *const argv[], char *const envp[], const char *directory,
                       pid_t *pid, int *error) {
    *pid = 0;
    *error = 0;
    int fds[2];
    if (pipe2(fds, O_CLOEXEC) != 0) {
        *error = errno;
        return QA_LAUNCH_PIPE;
    }
    /* Every signal blocked across fork, so no handler of the caller's runs in a child; the
     * children reset dispositions and unblock before anything else can arrive. */
    sigset_t all, previous;
    sigfillset(&all);
    pthread_sigmask(SIG_SETMASK, &all, &previous);
    pid_t middle = fork();
    if (middle == 0) {
        close(fds[0]);
        struct sigaction defaults;
        memset(&defaults, 0, sizeof defaults);
        defaults.sa_handler = SIG_DFL;
        sigemptyset(&defaults.sa_mask);
        for (int signal = 1; signal < NSIG; signal++) {
            if (signal != SIGKILL && signal != SIGSTOP) sigaction(signal, &defaults, NULL);
        }
        if (setsid() < 0) {
            qa_report_write(fds[1], QA_LAUNCH_SESSION, errno);
            _exit(127);
        }
        pid_t program = fork();
        if (program < 0) {
            qa_report_write(fds[1], QA_LAUNCH_FORK, errno);
            _exit(127);
        }
        if (program == 0) {
            sigset_t empty;
            sigemptyset(&empty);
            sigprocmask(SIG_SETMASK, &empty, NULL);
            qa_exec_program(fds[1], path, argv, envp, directory);
        }
        qa_report_write(fds[1], QA_LAUNCH_OK, (int)program);
        _exit(0);
    }
    int fork_error = errno;
    pthread_sigmask(SIG_SETMASK, &previous, NULL);
    close(fds[1]);
    if (middle < 0) {
        close(fds[0]);
        *error = fork_error;
        return QA_LAUNCH_FORK;
    }
    int status;
    while (waitpid(middle, &status, 0) < 0 && errno == EINTR) {
    }
    /* The middle process reports the program's pid; the program's process reports only a
     * failure. Their order is not known. */
    int step = QA_LAUNCH_LOST;
    int failed = QA_LAUNCH_OK;
    struct qa_report report;
    for (int count = 0; count < 2 && qa_report_read(fds[0], &report); count++) {
        if (report.step == QA_LAUNCH_OK) {
            *pid = (pid_t)report.value;
            if (step == QA_LAUNCH_LOST) step = QA_LAUNCH_OK;
        } else if (failed == QA_LAUNCH_OK) {
            failed = report.step;
            *error = report.value;
        }
    }
    if (failed != QA_LAUNCH_OK) step = failed;
    close(fds[0]);
    return step;
}
