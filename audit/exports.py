"""Renderings of a ``Report``: CSV, PDF (reportlab) and the RTP chart as inline SVG.

Every rendering starts with the report's title, period, generation time and software version,
so a file read on its own still says what it covers and which code produced it.
"""

from __future__ import annotations

import csv
import io
from datetime import date, datetime
from decimal import Decimal
from html import escape
from typing import Any

from audit.reports import Report


def cell(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, datetime):
        return value.strftime("%Y-%m-%d %H:%M:%S")
    if isinstance(value, date):
        return value.isoformat()
    if isinstance(value, Decimal):
        return f"{value:.2f}"
    if isinstance(value, bool):
        return "yes" if value else "no"
    return str(value)


def row_cells(report: Report) -> list[list[str]]:
    """Every row's cells, in the report's column order."""
    return [[cell(row.get(key)) for key, _ in report.columns] for row in report.rows]


def total_cells(report: Report) -> tuple[list[str], list[list[str]]]:
    """The totals' keys and cells (one line per currency); nothing without totals."""
    if not report.totals:
        return [], []
    keys = list(report.totals[0])
    return keys, [[cell(total.get(key)) for key in keys] for total in report.totals]


def flagged(row: dict[str, Any]) -> bool:
    """A row to show in red: a shoe flagged by its log, a game's RTP outside its band."""
    return bool(row.get("flagged") or str(row.get("flag", "")).startswith("OUTSIDE"))


def header_lines(report: Report) -> list[str]:
    return [
        report.title,
        f"Period: {report.period}",
        f"Generated: {report.generated_at.strftime('%Y-%m-%d %H:%M:%S %Z')}",
        f"Software version: {report.software_version}",
    ]


def report_csv(report: Report) -> bytes:
    out = io.StringIO()
    writer = csv.writer(out)
    for line in header_lines(report):
        writer.writerow([f"# {line}"])
    writer.writerow([label for _, label in report.columns])
    writer.writerows(row_cells(report))
    keys, totals = total_cells(report)
    if totals:
        writer.writerow([])
        writer.writerow(["# totals", *keys])
        for total in totals:
            writer.writerow(["", *total])
    for note in report.notes:
        writer.writerow([f"# {note}"])
    return out.getvalue().encode("utf-8")


# --- the RTP chart --------------------------------------------------------------------------


def _scale(chart: list[dict[str, Any]]) -> tuple[float, float]:
    values = [
        v
        for row in chart
        for v in (
            row["actual_rtp_pct"],
            row["theoretical_rtp_pct"],
            row["band_low_pct"],
            row["band_high_pct"],
        )
        if v is not None
    ]
    low, high = (min(values), max(values)) if values else (90.0, 100.0)
    pad = max((high - low) * 0.1, 0.5)
    return low - pad, high + pad


def rtp_chart_svg(chart: list[dict[str, Any]] | None) -> str:
    """One row per game: the 95 % band (bar), actual RTP (dot), theoretical RTP (diamond);
    rows outside the band in red."""
    if not chart:
        return ""
    width, label_w, row_h, top = 760, 260, 34, 30
    plot_w = width - label_w - 30
    low, high = _scale(chart)

    def x(value: float) -> float:
        return label_w + (value - low) / (high - low) * plot_w

    height = top + row_h * len(chart) + 30
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}" role="img" aria-label="RTP by game" '
        'font-family="sans-serif" font-size="12">',
        f'<text x="{label_w}" y="16">RTP % (band: 95% confidence; dot: actual; '
        "diamond: theoretical)</text>",
    ]
    for tick in range(6):
        value = low + (high - low) * tick / 5
        tx = x(value)
        parts.append(
            f'<line x1="{tx:.1f}" y1="{top - 6}" x2="{tx:.1f}" y2="{height - 24}" '
            'stroke="#ddd"/>'
            f'<text x="{tx:.1f}" y="{height - 8}" text-anchor="middle">{value:.1f}</text>'
        )
    for index, row in enumerate(chart):
        y = top + row_h * index + row_h / 2
        colour = "#c62828" if flagged(row) else "#1565c0"
        label = escape(f"{row['game']} ({row['currency']})")
        parts.append(f'<text x="4" y="{y + 4:.1f}">{label}</text>')
        if row["band_low_pct"] is not None:
            parts.append(
                f'<rect x="{x(row["band_low_pct"]):.1f}" y="{y - 6:.1f}" '
                f'width="{max(x(row["band_high_pct"]) - x(row["band_low_pct"]), 1):.1f}" '
                f'height="12" fill="{colour}" fill-opacity="0.25" stroke="{colour}"/>'
            )
        parts.append(
            f'<circle cx="{x(row["actual_rtp_pct"]):.1f}" cy="{y:.1f}" r="4" fill="{colour}"/>'
        )
        if row["theoretical_rtp_pct"] is not None:
            tx = x(row["theoretical_rtp_pct"])
            parts.append(
                f'<polygon points="{tx:.1f},{y - 7:.1f} {tx + 6:.1f},{y:.1f} {tx:.1f},'
                f'{y + 7:.1f} {tx - 6:.1f},{y:.1f}" fill="#000" fill-opacity="0.7"/>'
            )
    parts.append("</svg>")
    return "".join(parts)


# --- PDF ------------------------------------------------------------------------------------


def _pdf_chart(chart: list[dict[str, Any]]):
    from reportlab.graphics.shapes import Circle, Drawing, Polygon, Rect, String
    from reportlab.lib import colors

    width, label_w, row_h = 760, 260, 22
    plot_w = width - label_w - 20
    low, high = _scale(chart)
    drawing = Drawing(width, row_h * len(chart) + 24)

    def x(value: float) -> float:
        return label_w + (value - low) / (high - low) * plot_w

    drawing.add(
        String(label_w, drawing.height - 10, f"RTP % from {low:.1f} to {high:.1f}", fontSize=8)
    )
    for index, row in enumerate(chart):
        y = drawing.height - 24 - row_h * index - row_h / 2
        colour = colors.red if flagged(row) else colors.blue
        drawing.add(String(0, y - 3, f"{row['game']} ({row['currency']})"[:48], fontSize=7))
        if row["band_low_pct"] is not None:
            bx = x(row["band_low_pct"])
            drawing.add(
                Rect(
                    bx,
                    y - 5,
                    max(x(row["band_high_pct"]) - bx, 1),
                    10,
                    fillColor=colors.Color(colour.red, colour.green, colour.blue, 0.25),
                    strokeColor=colour,
                )
            )
        drawing.add(Circle(x(row["actual_rtp_pct"]), y, 3, fillColor=colour, strokeColor=colour))
        if row["theoretical_rtp_pct"] is not None:
            tx = x(row["theoretical_rtp_pct"])
            drawing.add(
                Polygon([tx, y - 5, tx + 4, y, tx, y + 5, tx - 4, y], fillColor=colors.black)
            )
    return drawing


def report_pdf(report: Report) -> bytes:
    from reportlab.lib import colors
    from reportlab.lib.pagesizes import A4, landscape
    from reportlab.lib.styles import getSampleStyleSheet
    from reportlab.lib.units import mm
    from reportlab.platypus import Paragraph, SimpleDocTemplate, Spacer, Table, TableStyle

    styles = getSampleStyleSheet()
    small = styles["BodyText"].clone("small", fontSize=7, leading=8)
    buffer = io.BytesIO()
    doc = SimpleDocTemplate(
        buffer,
        pagesize=landscape(A4),
        leftMargin=10 * mm,
        rightMargin=10 * mm,
        topMargin=10 * mm,
        bottomMargin=10 * mm,
        title=report.title,
        author="casino audit",
        subject=f"{report.kind} {report.period}",
    )
    lines = header_lines(report)
    story: list = [Paragraph(escape(lines[0]), styles["Title"])]
    story += [Paragraph(escape(line), styles["Normal"]) for line in lines[1:]]
    story.append(Spacer(1, 4 * mm))
    if report.chart:
        story += [_pdf_chart(report.chart), Spacer(1, 4 * mm)]

    def table(header: list[str], rows: list[list[str]]) -> Table:
        data = [[Paragraph(f"<b>{escape(h)}</b>", small) for h in header]]
        data += [[Paragraph(escape(v), small) for v in row] for row in rows]
        result = Table(data, repeatRows=1)
        result.setStyle(
            TableStyle(
                [
                    ("GRID", (0, 0), (-1, -1), 0.25, colors.grey),
                    ("BACKGROUND", (0, 0), (-1, 0), colors.lightgrey),
                    ("VALIGN", (0, 0), (-1, -1), "TOP"),
                ]
            )
        )
        return result

    rows = row_cells(report)
    if rows:
        story.append(table([label for _, label in report.columns], rows))
    else:
        story.append(Paragraph("No rows in this period.", styles["Normal"]))
    keys, totals = total_cells(report)
    if totals:
        story += [Spacer(1, 4 * mm), Paragraph("Totals", styles["Heading3"])]
        story.append(table(keys, totals))
    for note in report.notes:
        story.append(Paragraph(escape(note), small))
    doc.build(story)
    return buffer.getvalue()
