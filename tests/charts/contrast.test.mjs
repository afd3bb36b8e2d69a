// Every text element of every rendered chart SVG in the built site has ≥ 4.5:1 contrast against the
// figure background of its theme (WCAG 1.4.3). axe cannot see inside an <img>, so this reads the SVGs.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { svgTexts, contrastRatio, themeBackgrounds } from '../../scripts/lib/chart-svg-text.mjs';

const SITE = new URL('../../_site/', import.meta.url).pathname;
const CHARTS = join(SITE, 'assets/generated/charts');
const backgrounds = themeBackgrounds(readFileSync(join(SITE, 'assets/css/main.css'), 'utf8'));
const svgs = readdirSync(CHARTS, { recursive: true }).filter((f) => f.endsWith('.svg')).map((f) => join(CHARTS, f));

test('the contrast arithmetic matches WCAG reference values', () => {
  assert.equal(contrastRatio('#000', '#fff').toFixed(1), '21.0');
  assert.equal(contrastRatio('#777777', '#ffffff').toFixed(2), '4.48');
  assert.ok(contrastRatio('#000000', '#111418') < 1.2, 'black on the dark background is the failure this test exists for');
  assert.ok(contrastRatio('#eef0f3', '#111418', 0.35) < 4.5, 'translucent text is blended with the background');
});

test('every chart has light and dark renderings for phone and desktop', () => {
  const names = new Set(svgs);
  const wide = svgs.filter((f) => /\/[a-z0-9-]+-light\.svg$/.test(f) && !/-narrow-light\.svg$/.test(f));
  assert.ok(wide.length >= 10, `only ${wide.length} charts`);
  for (const f of wide) {
    for (const other of ['-dark.svg', '-narrow-light.svg', '-narrow-dark.svg']) {
      assert.ok(names.has(f.replace(/-light\.svg$/, other)), `${f}: no ${other} rendering`);
    }
  }
});

test('every text in every chart SVG has ≥ 4.5:1 contrast against its theme background', () => {
  const problems = [];
  let texts = 0;
  for (const f of svgs) {
    const theme = f.endsWith('-dark.svg') ? 'dark' : 'light';
    for (const t of svgTexts(readFileSync(f, 'utf8'))) {
      texts++;
      const ratio = contrastRatio(t.fill, backgrounds[theme], t.opacity);
      if (ratio < 4.5) problems.push(`${f.slice(SITE.length)}: "${t.text}" ${t.fill} at opacity ${t.opacity} on ${backgrounds[theme]} = ${ratio.toFixed(2)}:1`);
    }
  }
  assert.ok(texts > svgs.length * 3, `only ${texts} text elements in ${svgs.length} SVGs`);
  assert.deepEqual(problems.slice(0, 40), [], `${problems.length} text elements below 4.5:1`);
});
