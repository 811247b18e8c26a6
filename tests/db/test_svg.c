/* The charts of the HTML report (db/svg.c): stacked segments are as wide as
 * their values and add up to the bar, error bars sit at the interval's
 * ends, the axis reaches the largest value, and every text from a database
 * is escaped. The SVG is parsed back from the text it writes. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "db_int.h"

TestSuite(svg);

/* The chart's SVG text (malloc'd). */
static char *render(const db__chart_t *c)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	cr_assert(f);
	db__svg_chart(c, f);
	fclose(f);
	return buf;
}

typedef struct {
	double x, y, w;
	char fill[16];
} rect_t;

/* The rect.bar elements of svg, in order; returns how many (at most max). */
static int bars_of(const char *svg, rect_t *r, int max)
{
	int n = 0;
	for (const char *p = svg; (p = strstr(p, "<rect class=\"bar\"")) && n < max; p++) {
		cr_assert_eq(sscanf(p, "<rect class=\"bar\" x=\"%lf\" y=\"%lf\" width=\"%lf\" height=\"12\" fill=\"%15[^\"]\"",
		                    &r[n].x, &r[n].y, &r[n].w, r[n].fill),
		             4, "cannot read %.80s", p);
		n++;
	}
	return n;
}

static const char *const outcomes[] = {"Masked", "SDC", "DUE"};

Test(svg, stacked_segments_are_their_counts_and_fill_the_bar)
{
	/* two campaigns: 47/4/9 of 60 and 39/0/1 of 40 (an SDC of 0 draws nothing) */
	db__bar_t bars[2] = {{.group = "regfile", .label = "vadd", .seg = {47 / 60.0, 4 / 60.0, 9 / 60.0}, .lo = NAN, .hi = NAN},
	                     {.label = "stencil", .seg = {39 / 40.0, 0, 1 / 40.0}, .lo = NAN, .hi = NAN}};
	db__chart_t c = {.id = "outcomes", .title = "t", .axis = "share, %", .series = outcomes, .nseries = 3,
	                 .scale = 100, .xmax = 100, .bars = bars, .nbars = 2};
	db__svg_geom_t g;
	db__svg_layout(&c, &g);
	double plot = g.right - g.left;
	char *svg = render(&c);
	rect_t r[8];
	cr_assert_eq(bars_of(svg, r, 8), 5, "segments drawn: 3 + 2");
	const double want[5] = {47 / 60.0, 4 / 60.0, 9 / 60.0, 39 / 40.0, 1 / 40.0};
	for (int i = 0; i < 5; i++)
		cr_expect(fabs(r[i].w - plot * want[i]) < 0.011, "segment %d: width %.2f, want %.2f", i, r[i].w,
		          plot * want[i]);
	/* left to right, each starting where the last ended, the bar the whole axis */
	cr_expect(fabs(r[0].x - g.left) < 0.006);
	cr_expect(fabs(r[1].x - (r[0].x + r[0].w)) < 0.011 && fabs(r[2].x - (r[1].x + r[1].w)) < 0.011);
	cr_expect(fabs(r[2].x + r[2].w - g.right) < 0.011, "47+4+9 of 60 spans the axis");
	cr_expect(fabs(r[4].x + r[4].w - g.right) < 0.011, "39+1 of 40 spans the axis");
	cr_expect(r[3].y > r[0].y, "the second bar below the first");
	/* the series' colours, as the legend shows them */
	cr_expect_str_eq(r[0].fill, db__svg_color(&c, 0));
	cr_expect_str_eq(r[4].fill, db__svg_color(&c, 2));
	cr_expect_eq(strstr(svg, "<rect class=\"key\"") != NULL, true);
	cr_expect(strstr(svg, ">regfile</text>"), "the group heading");
	free(svg);
}

Test(svg, error_bars_sit_at_the_interval)
{
	db__bar_t bars[2] = {{.label = "a", .seg = {0.2253}, .lo = 0.1347, .hi = 0.3533},
	                     {.label = "b", .seg = {0.025}, .lo = 0.0044, .hi = 0.1288}};
	const char *const series[] = {"AVF"};
	db__chart_t c = {.id = "avf", .title = "t", .axis = "AVF, %", .series = series, .nseries = 1, .scale = 100,
	                 .bars = bars, .nbars = 2};
	db__svg_geom_t g;
	db__svg_layout(&c, &g);
	cr_expect(g.axis_max >= 35.33 && g.axis_max <= 40.0001, "the axis ends at the tick above 35.33: %g", g.axis_max);
	char *svg = render(&c);
	const char *p = svg;
	for (int b = 0; b < 2; b++) {
		p = strstr(p, "<path class=\"err\" d=\"M");
		cr_assert(p, "error bar %d drawn", b);
		double x0, y0, y1, x0b, ym, x1, x1b, y2, y3;
		cr_assert_eq(sscanf(p, "<path class=\"err\" d=\"M%lf %lfV%lfM%lf %lfH%lfM%lf %lfV%lf\"", &x0, &y0, &y1, &x0b,
		                    &ym, &x1, &x1b, &y2, &y3),
		             9, "cannot read %.100s", p);
		cr_expect(fabs(x0 - db__svg_x(&g, 100 * bars[b].lo)) < 0.006, "lower end %.2f", x0);
		cr_expect(fabs(x1 - db__svg_x(&g, 100 * bars[b].hi)) < 0.006, "upper end %.2f", x1);
		cr_expect(x0 == x0b && x1 == x1b && y1 > y0 && ym > y0 && ym < y1, "caps at both ends, joined between");
		p++;
	}
	/* the bar itself at its estimate */
	rect_t r[2];
	cr_assert_eq(bars_of(svg, r, 2), 2);
	cr_expect(fabs(r[0].x + r[0].w - db__svg_x(&g, 22.53)) < 0.011);
	free(svg);
}

Test(svg, no_error_bar_without_an_interval_and_no_segment_for_nan)
{
	db__bar_t bars[1] = {{.label = "a", .seg = {NAN, 0.5}, .lo = 0.1, .hi = NAN}};
	db__chart_t c = {.id = "x", .title = "t", .axis = "a", .series = outcomes, .nseries = 2, .scale = 1,
	                 .bars = bars, .nbars = 1};
	char *svg = render(&c);
	rect_t r[2];
	cr_expect_eq(bars_of(svg, r, 2), 1);
	cr_expect_null(strstr(svg, "class=\"err\""));
	free(svg);
}

Test(svg, database_strings_are_escaped)
{
	const char *nasty = "<script>alert('x')</script> & \"q\"\x01";
	db__bar_t bars[1] = {{.group = nasty, .label = nasty, .seg = {0.5}, .lo = NAN, .hi = NAN}};
	const char *const series[] = {nasty};
	db__chart_t c = {.id = "x", .title = nasty, .axis = nasty, .series = series, .nseries = 1, .scale = 1,
	                 .bars = bars, .nbars = 1};
	char *svg = render(&c);
	cr_expect_null(strstr(svg, "<script"), "no raw markup from the database");
	cr_expect_null(strstr(svg, "& "), "no raw ampersand");
	cr_expect_null(strstr(svg, "\x01"), "no control character");
	cr_expect(strstr(svg, "&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt; &amp; &quot;q&quot;"));
	free(svg);
}

Test(svg, long_labels_are_cut_with_the_whole_one_in_the_tooltip)
{
	char label[120];
	memset(label, 'a', sizeof label - 1);
	label[sizeof label - 1] = '\0';
	db__bar_t bars[1] = {{.label = label, .seg = {1}, .lo = NAN, .hi = NAN}};
	const char *const series[] = {"v"};
	db__chart_t c = {.id = "x", .title = "t", .axis = "a", .series = series, .nseries = 1, .scale = 1,
	                 .bars = bars, .nbars = 1};
	char *svg = render(&c);
	char cut[64];
	snprintf(cut, sizeof cut, ">%.43s\xe2\x80\xa6</text>", label);
	cr_expect(strstr(svg, cut), "43 characters and an ellipsis");
	char whole[140];
	snprintf(whole, sizeof whole, "<title>%s: v", label);
	cr_expect(strstr(svg, whole), "the whole label in the segment's tooltip");
	free(svg);
}

Test(svg, axis_steps_are_round)
{
	cr_expect_float_eq(db__svg_step(100), 20, 1e-12);
	cr_expect_float_eq(db__svg_step(15), 5, 1e-12);
	cr_expect_float_eq(db__svg_step(35.33), 10, 1e-12);
	cr_expect_float_eq(db__svg_step(0.35), 0.1, 1e-12);
	cr_expect_float_eq(db__svg_step(1964.6), 500, 1e-9);
	cr_expect_float_eq(db__svg_step(0), 0.2, 1e-12);
}

Test(svg, same_chart_same_bytes)
{
	db__bar_t bars[1] = {{.label = "a", .seg = {0.1234567}, .lo = 0.05, .hi = 0.2}};
	const char *const series[] = {"v"};
	db__chart_t c = {.id = "x", .title = "t", .axis = "a", .series = series, .nseries = 1, .scale = 100,
	                 .bars = bars, .nbars = 1};
	char *a = render(&c), *b = render(&c);
	cr_expect_str_eq(a, b);
	free(a);
	free(b);
}
