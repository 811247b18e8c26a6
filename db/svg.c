/* svg.c — one kind of chart for the HTML report (html.c): horizontal bars,
 * stacked segments, optional error bars, grouped under headings, with a
 * legend, an x axis with ticks and its label. The layout is a function of
 * the chart alone (no clock, no locale): the same chart gives the same
 * bytes. Every text is escaped for XML. Design: db_int.h ("charts"). */
#include <math.h>
#include <string.h>

#include "db_int.h"

/* Fixed palette: a series without its own colour takes the next one. */
static const char *const palette[] = {"#4e79a7", "#f28e2b", "#e15759", "#76b7b2", "#59a14f", "#edc948",
                                      "#b07aa1", "#ff9da7", "#9c755f", "#bab0ac", "#86bcb6", "#d37295"};

#define WIDTH 760.0
#define ROW 18.0       /* a bar's row */
#define BAR 12.0       /* a bar's height */
#define HEAD 20.0      /* a group heading's row */
#define CHAR_W 6.6     /* width of a character of the 11-px labels, generously */
#define LABEL_MAX 44   /* longer labels are cut with an ellipsis (the whole one in <title>) */

void db__xml_escape(const char *s, FILE *out)
{
	for (; s && *s; s++) {
		switch (*s) {
		case '&': fputs("&amp;", out); break;
		case '<': fputs("&lt;", out); break;
		case '>': fputs("&gt;", out); break;
		case '"': fputs("&quot;", out); break;
		case '\'': fputs("&#39;", out); break;
		default:
			/* control characters are not allowed in XML 1.0 */
			if ((unsigned char)*s < 0x20 && *s != '\t' && *s != '\n')
				fputc(' ', out);
			else
				fputc(*s, out);
		}
	}
}

/* Characters of s as they show (UTF-8 continuation bytes not counted). */
static size_t text_len(const char *s)
{
	size_t n = 0;
	for (; s && *s; s++)
		n += ((unsigned char)*s & 0xC0) != 0x80;
	return n;
}

/* s escaped, cut after LABEL_MAX characters with an ellipsis. */
static void put_label(const char *s, FILE *out)
{
	if (text_len(s) <= LABEL_MAX) {
		db__xml_escape(s, out);
		return;
	}
	size_t n = 0, i = 0;
	for (; s[i]; i++) {
		if (((unsigned char)s[i] & 0xC0) != 0x80 && ++n > LABEL_MAX - 1)
			break;
	}
	char buf[512];
	snprintf(buf, sizeof buf, "%.*s", (int)(i < sizeof buf - 1 ? i : sizeof buf - 1), s);
	db__xml_escape(buf, out);
	fputs("\xe2\x80\xa6", out); /* … */
}

double db__svg_step(double max)
{
	if (!(max > 0) || !isfinite(max))
		return 0.2;
	double raw = max / 5, mag = pow(10, floor(log10(raw))), f = raw / mag;
	return (f <= 1 ? 1 : f <= 2 ? 2 : f <= 2.5 ? 2.5 : f <= 5 ? 5 : 10) * mag;
}

/* The largest value the axis must hold: a bar's stacked sum or the top of
 * its error bar. */
static double data_max(const db__chart_t *c)
{
	double max = 0;
	for (size_t b = 0; b < c->nbars; b++) {
		double sum = 0;
		for (int i = 0; i < c->nseries; i++)
			if (c->bars[b].seg[i] > 0)
				sum += c->bars[b].seg[i];
		if (sum > max)
			max = sum;
		if (c->bars[b].hi > max)
			max = c->bars[b].hi;
	}
	return max * c->scale;
}

void db__svg_layout(const db__chart_t *c, db__svg_geom_t *g)
{
	size_t longest = 0;
	for (size_t b = 0; b < c->nbars; b++) {
		size_t n = text_len(c->bars[b].label);
		if (n > longest)
			longest = n;
	}
	if (longest > LABEL_MAX)
		longest = LABEL_MAX;
	g->left = 16 + CHAR_W * (double)longest;
	if (g->left < 80)
		g->left = 80;
	g->right = WIDTH - 24;
	/* legend: swatch and name, wrapped */
	double x = 16, rows = 1;
	for (int i = 0; i < c->nseries; i++) {
		double w = 26 + CHAR_W * (double)text_len(c->series[i]);
		if (x + w > WIDTH - 16 && x > 16) {
			rows++;
			x = 16;
		}
		x += w;
	}
	g->top = 34 + 18 * rows;
	double y = g->top;
	for (size_t b = 0; b < c->nbars; b++)
		y += (c->bars[b].group ? HEAD : 0) + ROW;
	g->bottom = y + 4;
	g->height = g->bottom + 46;
	double max = c->xmax > 0 ? c->xmax : data_max(c);
	g->step = db__svg_step(max);
	g->axis_max = c->xmax > 0 ? c->xmax : ceil(max / g->step - 1e-9) * g->step;
	if (!(g->axis_max > 0))
		g->axis_max = 5 * g->step;
}

double db__svg_x(const db__svg_geom_t *g, double shown)
{
	if (shown < 0)
		shown = 0;
	if (shown > g->axis_max)
		shown = g->axis_max;
	return g->left + (g->right - g->left) * shown / g->axis_max;
}

static void put_num(FILE *out, double v)
{
	char buf[32];
	snprintf(buf, sizeof buf, "%.2f", v);
	fputs(strcmp(buf, "-0.00") ? buf : "0.00", out);
}

static void legend(const db__chart_t *c, FILE *out)
{
	double x = 16, y = 34;
	for (int i = 0; i < c->nseries; i++) {
		double w = 26 + CHAR_W * (double)text_len(c->series[i]);
		if (x + w > WIDTH - 16 && x > 16) {
			y += 18;
			x = 16;
		}
		fprintf(out, "<rect class=\"key\" x=\"%.2f\" y=\"%.2f\" width=\"12\" height=\"12\" fill=\"%s\"/>", x, y,
		        db__svg_color(c, i));
		fprintf(out, "<text x=\"%.2f\" y=\"%.2f\">", x + 16, y + 10);
		db__xml_escape(c->series[i], out);
		fputs("</text>\n", out);
		x += w;
	}
}

const char *db__svg_color(const db__chart_t *c, int series)
{
	if (c->colors && c->colors[series])
		return c->colors[series];
	return palette[series % (int)(sizeof palette / sizeof *palette)];
}

static void axis(const db__chart_t *c, const db__svg_geom_t *g, FILE *out)
{
	int nticks = (int)floor(g->axis_max / g->step + 1e-9);
	for (int t = 0; t <= nticks; t++) {
		double v = t * g->step, x = db__svg_x(g, v);
		fprintf(out, "<line class=\"grid\" x1=\"%.2f\" y1=\"%.2f\" x2=\"%.2f\" y2=\"%.2f\"/>", x, g->top - 4, x,
		        g->bottom);
		fprintf(out, "<text class=\"tick\" x=\"%.2f\" y=\"%.2f\" text-anchor=\"middle\">%g</text>\n", x,
		        g->bottom + 14, v);
	}
	fprintf(out, "<line class=\"axis\" x1=\"%.2f\" y1=\"%.2f\" x2=\"%.2f\" y2=\"%.2f\"/>\n", g->left, g->bottom,
	        g->right, g->bottom);
	fprintf(out, "<text class=\"label\" x=\"%.2f\" y=\"%.2f\" text-anchor=\"middle\">", (g->left + g->right) / 2,
	        g->bottom + 34);
	db__xml_escape(c->axis, out);
	fputs("</text>\n", out);
}

/* One bar: its label, its segments left to right, its error bar. */
static void bar(const db__chart_t *c, const db__svg_geom_t *g, const db__bar_t *b, double y, FILE *out)
{
	fprintf(out, "<text x=\"%.2f\" y=\"%.2f\" text-anchor=\"end\">", g->left - 6, y + BAR - 2);
	put_label(b->label, out);
	fputs("</text>\n", out);
	double cum = 0;
	for (int i = 0; i < c->nseries; i++) {
		double v = b->seg[i];
		if (!(v > 0))
			continue;
		double x0 = db__svg_x(g, cum * c->scale), x1 = db__svg_x(g, (cum + v) * c->scale);
		cum += v;
		fputs("<rect class=\"bar\" x=\"", out);
		put_num(out, x0);
		fprintf(out, "\" y=\"%.2f\" width=\"", y);
		put_num(out, x1 - x0);
		fprintf(out, "\" height=\"%.0f\" fill=\"%s\"><title>", BAR, db__svg_color(c, i));
		db__xml_escape(b->label, out);
		fputs(": ", out);
		db__xml_escape(c->series[i], out);
		fprintf(out, " %.4g</title></rect>\n", v * c->scale);
	}
	if (!isnan(b->lo) && !isnan(b->hi)) {
		double x0 = db__svg_x(g, b->lo * c->scale), x1 = db__svg_x(g, b->hi * c->scale), ym = y + BAR / 2;
		fputs("<path class=\"err\" d=\"M", out);
		put_num(out, x0);
		fprintf(out, " %.2fV%.2fM", y, y + BAR);
		put_num(out, x0);
		fprintf(out, " %.2fH", ym);
		put_num(out, x1);
		fprintf(out, "M");
		put_num(out, x1);
		fprintf(out, " %.2fV%.2f\"><title>", y, y + BAR);
		db__xml_escape(b->label, out);
		fprintf(out, ": interval [%.4g, %.4g]</title></path>\n", b->lo * c->scale, b->hi * c->scale);
	}
}

void db__svg_chart(const db__chart_t *c, FILE *out)
{
	db__svg_geom_t g;
	db__svg_layout(c, &g);
	fprintf(out,
	        "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"chart\" id=\"fig-%s\" width=\"%.0f\" "
	        "height=\"%.0f\" viewBox=\"0 0 %.0f %.0f\" font-family=\"sans-serif\" font-size=\"11\" role=\"img\">\n",
	        c->id, WIDTH, g.height, WIDTH, g.height);
	fputs("<style>.grid{stroke:#ddd}.axis{stroke:#333}.err{stroke:#000;stroke-width:1.2;fill:none}"
	      ".head{font-weight:bold}.title{font-size:13px;font-weight:bold}.tick{fill:#333}</style>\n",
	      out);
	fputs("<title>", out);
	db__xml_escape(c->title, out);
	fputs("</title>\n<text class=\"title\" x=\"16\" y=\"18\">", out);
	db__xml_escape(c->title, out);
	fputs("</text>\n", out);
	legend(c, out);
	axis(c, &g, out);
	double y = g.top;
	for (size_t b = 0; b < c->nbars; b++) {
		if (c->bars[b].group) {
			fprintf(out, "<text class=\"head\" x=\"16\" y=\"%.2f\">", y + 14);
			db__xml_escape(c->bars[b].group, out);
			fputs("</text>\n", out);
			y += HEAD;
		}
		bar(c, &g, &c->bars[b], y + (ROW - BAR) / 2, out);
		y += ROW;
	}
	if (c->nbars == 0)
		fprintf(out, "<text x=\"%.2f\" y=\"%.2f\">no rows</text>\n", g.left, g.top + 12);
	fputs("</svg>\n", out);
}
