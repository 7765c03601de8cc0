import { readFileSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/**
 * No component renders a literal text: every word a person reads comes from the locale files through
 * t(), so Hindi readers never meet a stray English sentence. This reads every .tsx file under src with
 * the TypeScript compiler and reports JSX text, text-bearing attributes (aria-label, placeholder,
 * title, alt, label, description…), toast texts and page titles written as string literals.
 */
const SRC = fileURLToPath(new URL('..', import.meta.url));

/** Literal texts that are the same in every language. */
const ALLOWED = new Set(['Kamai', 'UPI', 'IFSC', 'UTR', '₹', '•', '·', '–', '—', '/', '%', '+', '×', '99+', 'support@kamai.app', 'you@example.com', 'https://']);

/** Attributes whose value a person reads or hears. */
const TEXT_ATTRIBUTES = new Set([
  'aria-label',
  'aria-description',
  'aria-valuetext',
  'placeholder',
  'title',
  'alt',
  'label',
  'description',
  'hint',
  'emptyText',
  'confirmLabel',
  'cancelLabel',
]);

/** Object properties that hold a toast's or dialog's text. */
const TEXT_PROPERTIES = new Set(['title', 'description']);

function hasWords(text: string): boolean {
  const trimmed = text.replace(/\s+/g, ' ').trim();
  if (!trimmed || ALLOWED.has(trimmed)) return false;
  return /[A-Za-z\u0900-\u097F]{2,}/.test(trimmed);
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.tsx') && !entry.name.endsWith('.gen.tsx') ? [path] : [];
  });
}

/** Literal strings in an expression, through conditionals, `??`/`||` and template literals. */
function literalsIn(node: ts.Node): ts.Node[] {
  if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) return hasWords(node.text) ? [node] : [];
  if (ts.isTemplateExpression(node)) {
    const parts = [node.head.text, ...node.templateSpans.map((span) => span.literal.text)];
    return parts.some(hasWords) ? [node] : [];
  }
  if (ts.isCallExpression(node) && ts.isIdentifier(node.expression) && node.expression.text === 'String') return [];
  if (ts.isConditionalExpression(node)) return [...literalsIn(node.whenTrue), ...literalsIn(node.whenFalse)];
  if (ts.isBinaryExpression(node)) {
    // `a && 'text'` renders the right side only; comparisons (`status === 'rejected'`) render nothing.
    const op = node.operatorToken.kind;
    if (op === ts.SyntaxKind.AmpersandAmpersandToken) return literalsIn(node.right);
    if (op === ts.SyntaxKind.BarBarToken || op === ts.SyntaxKind.QuestionQuestionToken || op === ts.SyntaxKind.PlusToken) {
      return [...literalsIn(node.left), ...literalsIn(node.right)];
    }
    return [];
  }
  if (ts.isParenthesizedExpression(node)) return literalsIn(node.expression);
  return [];
}

function calleeName(node: ts.CallExpression): string {
  const callee = node.expression;
  if (ts.isIdentifier(callee)) return callee.text;
  if (ts.isPropertyAccessExpression(callee)) return callee.name.text;
  return '';
}

export function literalTexts(fileName: string, text: string): string[] {
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TSX);
  const found: string[] = [];
  const report = (node: ts.Node) => {
    const { line } = source.getLineAndCharacterOfPosition(node.getStart(source));
    found.push(`${relative(SRC, fileName)}:${line + 1}: ${node.getText(source).replace(/\s+/g, ' ').slice(0, 80)}`);
  };
  const visit = (node: ts.Node) => {
    if (ts.isJsxText(node) && hasWords(node.text)) report(node);
    if (ts.isJsxAttribute(node) && TEXT_ATTRIBUTES.has(node.name.getText(source)) && node.initializer) {
      const value = ts.isJsxExpression(node.initializer) ? node.initializer.expression : node.initializer;
      if (value) literalsIn(value).forEach(report);
    }
    if (ts.isJsxExpression(node) && node.expression && ts.isJsxElement(node.parent)) literalsIn(node.expression).forEach(report);
    if (ts.isCallExpression(node)) {
      const name = calleeName(node);
      if (name === 'usePageTitle') node.arguments.flatMap(literalsIn).forEach(report);
      if (name === 'toast') {
        for (const argument of node.arguments) {
          if (!ts.isObjectLiteralExpression(argument)) continue;
          for (const property of argument.properties) {
            if (ts.isPropertyAssignment(property) && TEXT_PROPERTIES.has(property.name.getText(source))) {
              literalsIn(property.initializer).forEach(report);
            }
          }
        }
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

describe('no literal texts in components', () => {
  it('finds the kinds of literal it is meant to find', () => {
    const sample = `
      export const A = () => <p title="Hello there" aria-label={ok ? 'Yes please' : t('no')}>Some words {t('x')} {'more words'}</p>;
      toast({ title: 'Saved it', description: t('d') });
      usePageTitle('Home page');
      const fine = <span aria-hidden>₹ · {count}</span>;`;
    expect(literalTexts(join(SRC, 'sample.tsx'), sample)).toHaveLength(6);
  });

  it('every .tsx file under src takes its texts from the locale files', () => {
    const found = sourceFiles(SRC).flatMap((file) => literalTexts(file, readFileSync(file, 'utf8')));
    expect(found, `literal texts:\n${found.join('\n')}`).toEqual([]);
  });
});
