import { builderViolations, customThemeOf } from './custom-theme';

describe('builderViolations', () => {
  it('accepts hex colours, pixel sizes and anything else', () => {
    expect(
      builderViolations({
        background: { color: '#fff', imageUrl: 'https://x.test/a.png' },
        card: { backgroundColor: '#A0B1C2', borderRadius: 4, font: { family: 'Inter' } },
        scripts: { head: '<script></script>' },
      }),
    ).toEqual([]);
  });

  it('names every bad colour and size', () => {
    const v = builderViolations({
      background: { color: 'red' },
      card: { linksColor: '#12345z', borderWidth: -1, borderRadius: 1.5 },
    });
    expect(v.map((x) => x.propertyPath)).toEqual([
      'builder.background.color',
      'builder.card.linksColor',
      'builder.card.borderWidth',
      'builder.card.borderRadius',
    ]);
  });
});

describe('customThemeOf', () => {
  it('turns colours and sizes into CSS custom properties', () => {
    const theme = customThemeOf(
      {
        card: { backgroundColor: '#ffffff', borderRadius: 8, shadow: 'x; } body { color: red' },
        background: { color: '#000' },
      },
      'theme-1',
    );
    expect(theme.id).toBe('theme-1');
    expect(theme.variables).toEqual({
      '--tp-background-color': '#000',
      '--tp-card-background-color': '#ffffff',
      '--tp-card-border-radius': '8px',
    });
    expect(theme.css).toBe(
      ':root {\n  --tp-background-color: #000;\n  --tp-card-background-color: #ffffff;\n  --tp-card-border-radius: 8px;\n}\n',
    );
  });
});
