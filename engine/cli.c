/* Message helpers shared by every flipsim command (conventions in
 * eng_int.h): one line on stderr starting "flipsim: ". */
#include <stdarg.h>
#include <stdio.h>

#include "db.h"
#include "eng_int.h"

void eng_errorf(const char *fmt, ...)
{
	va_list ap;
	fputs("flipsim: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

int eng_usage_error(const char *cmd, const char *fmt, ...)
{
	va_list ap;
	fputs("flipsim: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	if (cmd)
		fprintf(stderr, "try 'flipsim %s --help'\n", cmd);
	else
		fputs("try 'flipsim --help'\n", stderr);
	return ENG_EXIT_INPUT;
}

int eng_exit_status(int e)
{
	switch (e) {
	case 0: return ENG_EXIT_OK;
#define STATUS(name, code, status, msg) \
	case code: return status;
		ENG_ERRNO_MAP(STATUS)
#undef STATUS
	default: return ENG_EXIT_INTERNAL;
	}
}

const char *eng_strerror(int e)
{
	switch (e) {
	case 0: return "success";
#define MSG(name, code, status, msg) \
	case code: return msg;
		ENG_ERRNO_MAP(MSG)
#undef MSG
	default: return "unknown error";
	}
}

int eng_db_err(int db_err)
{
	switch (db_err) {
	case 0: return 0;
	case DB_ENOMEM:
	case DB_EINVAL:
	case DB_ESQL: return ENG_EINTERNAL;
	default: return ENG_EINPUT; /* the file: not ours, newer, read-only, locked, full, unreadable */
	}
}

int eng_db_status(int db_err)
{
	return eng_exit_status(eng_db_err(db_err));
}
