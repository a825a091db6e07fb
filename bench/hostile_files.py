"""Hostile inputs for the memory bounds (bench/bench_memory.py and its test): files
whose rows, cells, strings or compression once took the process past a GB."""
from __future__ import annotations

import zipfile
from pathlib import Path

HEADER = "event,variant,round,table,deal,players,dealer,hands,stock,passes,play,scores"
_NS = 'xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"'
_TYPES = ('<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/'
          'content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-'
          'package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/>'
          '<Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-'
          'officedocument.spreadsheetml.sheet.main+xml"/>{sheets}</Types>')
_SHEET_TYPE = ('<Override PartName="/xl/worksheets/sheet{n}.xml" ContentType="application/'
               'vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/>')
_RELS = ('<?xml version="1.0"?><Relationships xmlns="http://schemas.openxmlformats.org/package/'
         '2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/'
         'officeDocument/2006/relationships/officeDocument" Target="xl/workbook.xml"/>'
         '</Relationships>')


def _header_row() -> str:
    return ('<row r="1">' + "".join(f'<c t="inlineStr"><is><t>{h}</t></is></c>'
                                    for h in HEADER.split(",")) + "</row>")


def workbook(path: Path, sheets: list, shared_strings: bytes | None = None) -> Path:
    """An XLSX whose sheets are given as callables writing the rows after the header
    (``write(stream)``), streamed into the zip (nothing of a sheet is held whole)."""
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr("[Content_Types].xml", _TYPES.format(sheets="".join(
            _SHEET_TYPE.format(n=n) for n in range(1, len(sheets) + 1))))
        z.writestr("_rels/.rels", _RELS)
        z.writestr("xl/workbook.xml", f'<?xml version="1.0"?><workbook {_NS} xmlns:r="http://'
                   'schemas.openxmlformats.org/officeDocument/2006/relationships"><sheets>'
                   + "".join(f'<sheet name="S{n}" sheetId="{n}" r:id="rId{n}"/>'
                             for n in range(1, len(sheets) + 1)) + "</sheets></workbook>")
        z.writestr("xl/_rels/workbook.xml.rels", '<?xml version="1.0"?><Relationships xmlns='
                   '"http://schemas.openxmlformats.org/package/2006/relationships">'
                   + "".join(f'<Relationship Id="rId{n}" Type="http://schemas.openxmlformats.'
                             'org/officeDocument/2006/relationships/worksheet" Target="'
                             f'worksheets/sheet{n}.xml"/>' for n in range(1, len(sheets) + 1))
                   + "</Relationships>")
        if shared_strings is not None:
            with z.open("xl/sharedStrings.xml", "w", force_zip64=True) as stream:
                stream.write(f'<?xml version="1.0"?><sst {_NS}>'.encode())
                stream.write(shared_strings)
                stream.write(b"</sst>")
        for n, write in enumerate(sheets, 1):
            with z.open(f"xl/worksheets/sheet{n}.xml", "w", force_zip64=True) as stream:
                stream.write(f'<?xml version="1.0"?><worksheet {_NS}><sheetData>'.encode())
                stream.write(_header_row().encode())
                write(stream)
                stream.write(b"</sheetData></worksheet>")
    return path


def wide_row(cells: int):
    """A sheet whose second row has ``cells`` number cells."""
    def write(stream) -> None:
        stream.write(b'<row r="2">')
        chunk = "".join(f'<c t="n"><v>{i}</v></c>' for i in range(1000)).encode()
        for _ in range(cells // 1000):
            stream.write(chunk)
        stream.write(b"</row>")
    return write


def plain_rows(rows: int):
    """A sheet of ``rows`` ordinary rows (each cell a short text)."""
    def write(stream) -> None:
        for r in range(2, rows + 2):
            stream.write((f'<row r="{r}">' + "".join(
                f'<c t="inlineStr"><is><t>x{r}</t></is></c>' for _ in range(12))
                + "</row>").encode())
    return write


def many_strings(megabytes: int) -> bytes:
    """A shared-strings table of about ``megabytes`` MB (compresses to almost nothing)."""
    item = b"<si><t>" + b"s" * 1000 + b"</t></si>"
    return item * (megabytes * 1024 * 1024 // len(item))


def garbage_csv(path: Path, rows: int) -> Path:
    """A record CSV of ``rows`` rows, each a match of its own that no rule allows."""
    with open(path, "w", encoding="utf-8") as stream:
        stream.write(HEADER + "\n")
        for i in range(rows):
            stream.write(f"x{i % 7},nope,{i % 13},t{i},zz,a;b,c,,,,,\n")
    return path
