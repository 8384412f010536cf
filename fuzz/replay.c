/*
 * replay.c — a plain main() for every fuzz harness: runs
 * LLVMFuzzerTestOneInput once per file named on the command line, walking
 * directories one level deep.  Built with ASan+UBSan, it is how `make check`
 * replays fuzz/corpus/<target>/ and fuzz/regress/<target>/.
 */
#include <dirent.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define REPLAY_MAX_INPUT (1u << 20)

static int
replay_file(const char *path)
{
	struct stat st;
	FILE *f;
	uint8_t *buf;
	size_t n;

	if (stat(path, &st) != 0 || !S_ISREG(st.st_mode))
		return 0;
	if (st.st_size > REPLAY_MAX_INPUT) {
		fprintf(stderr, "replay: %s: larger than %u bytes\n", path,
		    REPLAY_MAX_INPUT);
		return -1;
	}
	if ((f = fopen(path, "rb")) == NULL) {
		fprintf(stderr, "replay: %s: %s\n", path, strerror(errno));
		return -1;
	}
	/* An exactly sized heap copy, so ASan sees any over-read. */
	buf = malloc(st.st_size ? (size_t)st.st_size : 1);
	if (buf == NULL) {
		fclose(f);
		return -1;
	}
	n = fread(buf, 1, (size_t)st.st_size, f);
	fclose(f);
	LLVMFuzzerTestOneInput(buf, n);
	free(buf);
	return 1;
}

static int
replay_dir(const char *dir)
{
	struct dirent **names;
	char path[4096];
	int i, n, count = 0;

	n = scandir(dir, &names, NULL, alphasort);
	if (n < 0) {
		fprintf(stderr, "replay: %s: %s\n", dir, strerror(errno));
		return -1;
	}
	for (i = 0; i < n; i++) {
		if (names[i]->d_name[0] != '.' &&
		    snprintf(path, sizeof(path), "%s/%s", dir,
		    names[i]->d_name) < (int)sizeof(path)) {
			int r = replay_file(path);
			if (r < 0)
				count = -1;
			else if (count >= 0)
				count += r;
		}
		free(names[i]);
	}
	free(names);
	return count;
}

int
main(int argc, char **argv)
{
	struct stat st;
	int i, r, total = 0, bad = 0;

	for (i = 1; i < argc; i++) {
		if (stat(argv[i], &st) != 0)
			continue;	/* a target may have no regress dir yet */
		r = S_ISDIR(st.st_mode) ? replay_dir(argv[i])
		    : replay_file(argv[i]);
		if (r < 0)
			bad = 1;
		else
			total += r;
	}
	printf("replayed %d inputs\n", total);
	return bad;
}
