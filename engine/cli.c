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

int eng_db_status(int db_err)
{
	switch (db_err) {
	case 0: return ENG_EXIT_OK;
	case DB_ENOMEM:
	case DB_EINVAL:
	case DB_ESQL: return ENG_EXIT_INTERNAL;
	default: return ENG_EXIT_INPUT; /* the file: not ours, newer, read-only, locked, full, unreadable */
	}
}
