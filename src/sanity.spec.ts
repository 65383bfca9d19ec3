describe('toolchain', () => {
  it('runs ts through jest', () => {
    const x: number = 1 + 1;
    expect(x).toBe(2);
  });
});
