"""Small charts as inline SVG text: horizontal bars and 100 % stacked bars. Drawn here so the
HTML report needs no charting package, no network and no JavaScript.

Every text a chart shows (titles, labels, segment names, formatted values) is escaped here, so a
chart is returned as :class:`~markupsafe.Markup`: the report's template inserts it as is, and
this module is the one place that vouches for markup in the report."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from html import escape

from markupsafe import Markup

#: Colour-blind-safe palette (Okabe & Ito), for stacked segments in order.
PALETTE = (
    "#0072B2",
    "#E69F00",
    "#009E73",
    "#CC79A7",
    "#56B4E9",
    "#D55E00",
    "#F0E442",
    "#999999",
)
BAR = "#0072B2"
_ROW = 20
_LABEL_W = 170
_VALUE_W = 90
_FONT = 'font-family="DejaVu Sans, Arial, sans-serif" font-size="12"'


def _clip(text: str, chars: int = 26) -> str:
    return text if len(text) <= chars else text[: chars - 1] + "…"


def _number(value: float) -> str:
    return f"{value:,.0f}" if float(value).is_integer() else f"{value:,.3g}"


def bar_chart(
    bars: Sequence[tuple[str, float]],
    *,
    title: str,
    width: int = 560,
    fmt: Callable[[float], str] = _number,
    colour: str = BAR,
) -> Markup:
    """One horizontal bar per (label, value), longest value full width."""
    plot_w = width - _LABEL_W - _VALUE_W
    top = 24
    height = top + _ROW * max(len(bars), 1) + 8
    peak = max((v for _, v in bars), default=0.0) or 1.0
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'role="img" aria-label="{escape(title)}" {_FONT}>',
        f'<text x="0" y="14" font-weight="bold">{escape(title)}</text>',
    ]
    if not bars:
        parts.append(f'<text x="0" y="{top + 14}" fill="#666">nothing to show</text>')
    for i, (label, value) in enumerate(bars):
        y = top + i * _ROW
        w = max(plot_w * max(value, 0.0) / peak, 0.5 if value > 0 else 0.0)
        parts.append(
            f'<text x="{_LABEL_W - 6}" y="{y + 14}" text-anchor="end">'
            f"<title>{escape(label)}</title>{escape(_clip(label))}</text>"
            f'<rect x="{_LABEL_W}" y="{y + 3}" width="{w:.1f}" height="{_ROW - 6}" '
            f'fill="{escape(colour)}"/>'
            f'<text x="{_LABEL_W + w + 4:.1f}" y="{y + 14}">{escape(fmt(value))}</text>'
        )
    parts.append("</svg>")
    return Markup("".join(parts))


def stacked_chart(
    rows: Sequence[tuple[str, Sequence[tuple[str, float]]]],
    *,
    title: str,
    width: int = 560,
) -> Markup:
    """One 100 % bar per row, split into (segment name, share) parts in order; a legend of the
    segment names below (the same name has the same colour in every row)."""
    plot_w = width - _LABEL_W - 10
    names: list[str] = []
    for _, segments in rows:
        names += [n for n, _ in segments if n not in names]
    colour = {n: PALETTE[i % len(PALETTE)] for i, n in enumerate(names)}
    top = 24
    legend_y = top + _ROW * len(rows) + 10
    legend_rows = (len(names) + 3) // 4
    height = legend_y + 18 * legend_rows + 6
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'role="img" aria-label="{escape(title)}" {_FONT}>',
        f'<text x="0" y="14" font-weight="bold">{escape(title)}</text>',
    ]
    for i, (label, segments) in enumerate(rows):
        y = top + i * _ROW
        parts.append(
            f'<text x="{_LABEL_W - 6}" y="{y + 14}" text-anchor="end">{escape(_clip(label))}</text>'
        )
        total = sum(s for _, s in segments) or 1.0
        x = float(_LABEL_W)
        for name, share in segments:
            w = plot_w * share / total
            parts.append(
                f'<rect x="{x:.1f}" y="{y + 3}" width="{w:.1f}" height="{_ROW - 6}" '
                f'fill="{colour[name]}"><title>{escape(label)}: {escape(name)} '
                f"{100 * share / total:.1f} %</title></rect>"
            )
            x += w
    col_w = (width - 10) // 4
    for i, name in enumerate(names):
        x, y = (i % 4) * col_w, legend_y + 18 * (i // 4)
        parts.append(
            f'<rect x="{x}" y="{y}" width="12" height="12" fill="{colour[name]}"/>'
            f'<text x="{x + 16}" y="{y + 11}">{escape(_clip(name, 22))}</text>'
        )
    parts.append("</svg>")
    return Markup("".join(parts))
