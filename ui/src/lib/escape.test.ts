import { describe, expect, it } from 'vitest';
import { escapeHtml, tooltipHtml } from './escape';

describe('escaping for ECharts formatters', () => {
  it('escapes every HTML-significant character', () => {
    expect(escapeHtml(`<img src=x onerror="alert('x')">&\``)).toBe(
      '&lt;img src=x onerror=&quot;alert(&#39;x&#39;)&quot;&gt;&amp;&#96;',
    );
  });

  it('builds tooltips whose data cannot add elements', () => {
    const html = tooltipHtml('<script>alert(1)</script>', [['<b>k</b>', '<img src=x onerror=alert(2)>']]);
    const div = document.createElement('div');
    div.innerHTML = html;
    expect(div.querySelectorAll('script, img').length).toBe(0);
    expect(div.textContent).toBe('<script>alert(1)</script><b>k</b>: <img src=x onerror=alert(2)>');
  });
});
