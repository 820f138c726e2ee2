/* Run a command and print its wall time (ns) and peak resident memory (KiB).
 *
 *   measure CMD ARGS...   ->  "<wall_ns> <maxrss_kib>" on stderr's last line, exit status of CMD
 *
 * The clock starts just before fork and stops when wait4 returns, so it counts the command's
 * own start-up (exec, dynamic loading) but not the cost of the harness that calls this. The
 * child is forked from this small process, so its peak memory is its own. */
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

int main(int argc, char **argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: measure CMD [ARGS...]\n");
    return 2;
  }
  struct timespec t0, t1;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  pid_t pid = fork();
  if (pid < 0) {
    perror("fork");
    return 2;
  }
  if (pid == 0) {
    execvp(argv[1], argv + 1);
    perror("exec");
    _exit(127);
  }
  int status = 0;
  struct rusage ru;
  if (wait4(pid, &status, 0, &ru) < 0) {
    perror("wait4");
    return 2;
  }
  clock_gettime(CLOCK_MONOTONIC, &t1);
  long long ns = (long long)(t1.tv_sec - t0.tv_sec) * 1000000000LL + (t1.tv_nsec - t0.tv_nsec);
  fprintf(stderr, "%lld %ld\n", ns, ru.ru_maxrss);
  return WIFEXITED(status) ? WEXITSTATUS(status) : 1;
}
