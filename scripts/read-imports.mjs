// The layout check's reader (scripts/check-layout.mjs): the module specifiers a source file imports, read with
// a small tokenizer so that comments, strings and template literals are skipped (an example in a TSDoc comment
// is not an import). No dependencies: node 20 alone.

const KEYWORDS_BEFORE_EXPRESSION = new Set([
  'return',
  'typeof',
  'instanceof',
  'in',
  'of',
  'new',
  'delete',
  'void',
  'throw',
  'case',
  'do',
  'else',
  'yield',
  'await',
]);
const isIdStart = (c) => /[A-Za-z_$\u0080-\uffff#]/.test(c);
const isIdPart = (c) => /[\w$\u0080-\uffff]/.test(c);

/**
 * The tokens of a JavaScript or TypeScript source, comments dropped: `{ t: 'id' | 'str' | 'punct' | 'other',
 * v, line }`. A string's `v` is its text; a template literal with substitutions has `v: null`.
 */
export function tokenize(text) {
  const tokens = [];
  const braces = []; // 'b' for a plain brace, 't' for a template substitution
  let i = 0;
  let line = 1;
  if (text.charCodeAt(0) === 0xfeff) i = 1;
  if (text.startsWith('#!', i)) while (i < text.length && text[i] !== '\n') i++;
  const push = (t, v, ln) => tokens.push({ t, v, line: ln });
  const regexAllowed = () => {
    const p = tokens[tokens.length - 1];
    if (p === undefined) return true;
    if (p.t === 'id') return KEYWORDS_BEFORE_EXPRESSION.has(p.v);
    if (p.t === 'punct') return !(p.v === ')' || p.v === ']');
    return false;
  };
  // Scans a template literal's text from i (after the backtick or a substitution's closing brace).
  const template = (startLine) => {
    let raw = '';
    while (i < text.length) {
      const c = text[i];
      if (c === '\\') {
        raw += text.slice(i, i + 2);
        if (text[i + 1] === '\n') line++;
        i += 2;
      } else if (c === '`') {
        i++;
        return { done: true, raw, startLine };
      } else if (c === '$' && text[i + 1] === '{') {
        i += 2;
        braces.push('t');
        return { done: false, raw, startLine };
      } else {
        if (c === '\n') line++;
        raw += c;
        i++;
      }
    }
    return { done: true, raw, startLine };
  };
  while (i < text.length) {
    const c = text[i];
    if (c === '\n') {
      line++;
      i++;
    } else if (c === ' ' || c === '\t' || c === '\r' || c === '\f' || c === '\v' || c === '\u00a0') {
      i++;
    } else if (c === '/' && text[i + 1] === '/') {
      while (i < text.length && text[i] !== '\n') i++;
    } else if (c === '/' && text[i + 1] === '*') {
      const end = text.indexOf('*/', i + 2);
      const stop = end < 0 ? text.length : end + 2;
      for (let k = i; k < stop; k++) if (text[k] === '\n') line++;
      i = stop;
    } else if (c === '"' || c === "'") {
      const startLine = line;
      let v = '';
      i++;
      while (i < text.length && text[i] !== c && text[i] !== '\n') {
        if (text[i] === '\\') {
          v += text[i + 1] ?? '';
          if (text[i + 1] === '\n') line++;
          i += 2;
        } else v += text[i++];
      }
      i++;
      push('str', v, startLine);
    } else if (c === '`') {
      i++;
      const r = template(line);
      push('str', r.done ? r.raw : null, r.startLine);
    } else if (c === '}' && braces[braces.length - 1] === 't') {
      braces.pop();
      i++;
      const r = template(line);
      if (!r.done) continue;
    } else if (c === '/' && regexAllowed()) {
      // A regular expression literal; one that reaches the end of the line was a division after all.
      let k = i + 1;
      let inClass = false;
      let ok = false;
      while (k < text.length && text[k] !== '\n') {
        const d = text[k];
        if (d === '\\') k += 2;
        else {
          if (d === '[') inClass = true;
          else if (d === ']') inClass = false;
          else if (d === '/' && !inClass) {
            ok = true;
            break;
          }
          k++;
        }
      }
      if (ok) {
        k++;
        while (k < text.length && isIdPart(text[k])) k++;
        push('other', 'regex', line);
        i = k;
      } else {
        push('punct', '/', line);
        i++;
      }
    } else if (isIdStart(c)) {
      let k = i + 1;
      while (k < text.length && isIdPart(text[k])) k++;
      push('id', text.slice(i, k), line);
      i = k;
    } else if (/[0-9]/.test(c)) {
      let k = i + 1;
      while (k < text.length && /[\w.]/.test(text[k])) k++;
      push('other', 'number', line);
      i = k;
    } else {
      if (c === '{') braces.push('b');
      else if (c === '}') braces.pop();
      push('punct', c, line);
      i++;
    }
  }
  return tokens;
}

/** Every module specifier a source imports or re-exports, with its line: `{ spec, line, dynamic }`. */
export function importsOf(text) {
  const tokens = tokenize(text);
  const found = [];
  const at = (k) => tokens[k] ?? { t: 'eof', v: undefined, line: 0 };
  const isP = (k, v) => at(k).t === 'punct' && at(k).v === v;
  const isId = (k, v) => at(k).t === 'id' && at(k).v === v;
  const str = (k) => at(k).t === 'str' && at(k).v !== null;
  // From k, the specifier after `from` at brace depth 0, before any `;` or `=`.
  const fromClause = (k) => {
    let depth = 0;
    for (let n = 0; n < 2000 && k < tokens.length; n++, k++) {
      const tk = at(k);
      if (tk.t === 'punct') {
        if (tk.v === '{') depth++;
        else if (tk.v === '}') depth--;
        else if (depth === 0 && (tk.v === ';' || tk.v === '=' || tk.v === '(' || tk.v === ')')) return undefined;
      } else if (tk.t === 'id' && tk.v === 'from' && depth === 0 && str(k + 1)) return k + 1;
      else if (tk.t === 'str' && depth === 0) return undefined;
    }
    return undefined;
  };
  for (let k = 0; k < tokens.length; k++) {
    const tk = tokens[k];
    if (tk.t !== 'id') continue;
    const afterDot = isP(k - 1, '.') && !isP(k - 2, '.');
    if (afterDot) continue;
    if (tk.v === 'import') {
      if (isP(k + 1, '.')) continue; // import.meta
      if (isP(k + 1, '(')) {
        if (str(k + 2) && (isP(k + 3, ')') || isP(k + 3, ','))) found.push({ spec: at(k + 2).v, line: at(k + 2).line, dynamic: true });
        continue;
      }
      if (str(k + 1)) {
        found.push({ spec: at(k + 1).v, line: at(k + 1).line, dynamic: false });
        continue;
      }
      const s = fromClause(k + 1);
      if (s !== undefined) found.push({ spec: at(s).v, line: at(s).line, dynamic: false });
    } else if (tk.v === 'export') {
      let k2 = k + 1;
      if (isId(k2, 'type')) k2++;
      if (isP(k2, '*')) {
        k2++;
        if (isId(k2, 'as')) k2 += 2;
        if (isId(k2, 'from') && str(k2 + 1)) found.push({ spec: at(k2 + 1).v, line: at(k2 + 1).line, dynamic: false });
      } else if (isP(k2, '{')) {
        let depth = 0;
        for (; k2 < tokens.length; k2++) {
          if (isP(k2, '{')) depth++;
          else if (isP(k2, '}') && --depth === 0) break;
        }
        if (isId(k2 + 1, 'from') && str(k2 + 2)) found.push({ spec: at(k2 + 2).v, line: at(k2 + 2).line, dynamic: false });
      }
    } else if (tk.v === 'require' && isP(k + 1, '(') && str(k + 2) && isP(k + 3, ')')) {
      found.push({ spec: at(k + 2).v, line: at(k + 2).line, dynamic: false });
    }
  }
  return found;
}
