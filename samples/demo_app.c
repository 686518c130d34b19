/* The demo's application: handles a few "requests". */
#include <stdio.h>
#include <string.h>

struct header {
	unsigned int magic;
	int len;
};

struct request {
	long id;
	struct header *hdr;
	const char *path;
};

struct conn {
	int fd;
	int prio;
};

/* noipa: keep a real call the probe can see, however pure the body is */
__attribute__((noipa)) int handle_req(struct request *req, struct conn *conn, int retries)
{
	/* pretend to work */
	return req->hdr->len + conn->fd - retries;
}

int main(void)
{
	static const char *paths[] = { "/", "/index.html", "/api/v1/items", "/favicon.ico" };
	struct conn conn = { .fd = 7, .prio = -3 };
	int total = 0;

	for (int i = 0; i < 4; i++) {
		struct header hdr = { .magic = 0xfeed, .len = 100 * (i + 1) + (int)strlen(paths[i]) };
		struct request req = { .id = 1000 + i, .hdr = &hdr, .path = paths[i] };

		printf("app: request %ld len=%d fd=%d retries=%d\n", req.id, hdr.len, conn.fd, -i);
		total += handle_req(&req, &conn, -i);
	}
	printf("app: total %d\n", total);
	return 0;
}
