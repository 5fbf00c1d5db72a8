import { intBetween, type Rng } from './prng.js';
import { pickWord } from './vocabulary.js';

function sentence(rng: Rng): string {
  const count = intBetween(rng, 6, 19);
  let out = pickWord(rng);
  out = out[0]!.toUpperCase() + out.slice(1);
  for (let i = 1; i < count; i++) out += ' ' + pickWord(rng);
  return out + '.';
}

/**
 * Prose of a length drawn uniformly from [min, max]: whole sentences of 6–19 words until the drawn
 * length is reached, cut at exactly that length so sizes stay inside the documented range.
 */
export function prose(rng: Rng, min: number, max: number): string {
  const target = intBetween(rng, min, max);
  let out = sentence(rng);
  while (out.length < target) out += ' ' + sentence(rng);
  return out.slice(0, target);
}

function identifier(rng: Rng): string {
  const head = pickWord(rng);
  if (rng() < 0.5) return head;
  const tail = pickWord(rng);
  return head + tail[0]!.toUpperCase() + tail.slice(1);
}

function codeLine(rng: Rng, indent: string): string {
  const roll = rng();
  if (roll < 0.35)
    return `${indent}const ${identifier(rng)} = ${identifier(rng)}(${identifier(rng)}, ${intBetween(rng, 0, 999)});`;
  if (roll < 0.55) return `${indent}if (${identifier(rng)} > ${identifier(rng)}) return ${identifier(rng)};`;
  if (roll < 0.7) return `${indent}// ${sentence(rng)}`;
  if (roll < 0.85)
    return `${indent}${identifier(rng)}.${identifier(rng)} = "${pickWord(rng)} ${pickWord(rng)}";`;
  return `${indent}return ${identifier(rng)}(${identifier(rng)});`;
}

/**
 * Indented pseudo-code (function headers, assignments, if/return, comments) of a length drawn
 * uniformly from [min, max], cut at exactly that length. Quotes and newlines are deliberate: they
 * make the JSON escaping cost of real tool payloads show up in serialized sizes.
 */
export function code(rng: Rng, min: number, max: number): string {
  const target = intBetween(rng, min, max);
  const lines: string[] = [];
  let length = 0;
  while (length < target) {
    const header = `function ${identifier(rng)}(${identifier(rng)}, ${identifier(rng)}) {`;
    lines.push(header);
    length += header.length + 1;
    const body = intBetween(rng, 2, 8);
    for (let i = 0; i < body && length < target; i++) {
      const line = codeLine(rng, rng() < 0.3 ? '    ' : '  ');
      lines.push(line);
      length += line.length + 1;
    }
    lines.push('}');
    length += 2;
  }
  return lines.join('\n').slice(0, target);
}

/** A plausible source path for a tool call's arguments. */
export function sourcePath(rng: Rng): string {
  return `src/${pickWord(rng)}/${identifier(rng)}.ts`;
}
