import { describe, expect, it } from 'vitest';
import stringWidth from 'string-width';
import { renderTable, truncate } from './table.js';

describe('renderTable', () => {
  it('aligns every column to its widest cell, two spaces apart, with no trailing spaces', () => {
    expect(
      renderTable(
        [
          ['a', 'bb', 'x'],
          ['ccc', 'd', ''],
        ],
        [{}, {}, {}],
      ),
    ).toEqual(['a    bb  x', 'ccc  d']);
  });

  it('cuts a cell past its column bound with … so the next column stays put', () => {
    const lines = renderTable(
      [
        ['a-very-long-identifier', 'next'],
        ['id', 'next'],
      ],
      [{ max: 8 }, {}],
    );
    expect(lines).toEqual(['a-very-…  next', 'id        next']);
  });

  it('measures wide characters as two cells', () => {
    const lines = renderTable(
      [
        ['中文', 'x'],
        ['abc', 'y'],
      ],
      [{}, {}],
    );
    expect(lines.map((l) => stringWidth(l.slice(0, -1)))).toEqual([6, 6]);
  });

  it('bounds the last column by the width it is given, and prints it whole without one', () => {
    const rows = [['id', 'a title that is rather long']];
    expect(renderTable(rows, [{}, {}], 20)).toEqual(['id  a title that is…']);
    expect(renderTable(rows, [{}, {}])).toEqual(['id  a title that is rather long']);
  });

  it('keeps a minimum width, so rows rendered apart line up', () => {
    expect(renderTable([['1', 'x']], [{ align: 'right', min: 4 }, {}])).toEqual(['   1  x']);
  });
});

describe('truncate', () => {
  it('leaves text that fits and cuts wide text on a character boundary', () => {
    expect(truncate('short', 5)).toBe('short');
    expect(truncate('中文标题', 5)).toBe('中文…');
  });
});
