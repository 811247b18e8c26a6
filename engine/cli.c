/* Message helpers shared by every flipsim command (conventions in
 * eng_int.h): one line on stderr starting "flipsim: ". */
#include <stdarg.h>
#include <stdio.h>

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
