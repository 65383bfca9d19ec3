import { rowsOf } from './sql-runner';

describe('rowsOf', () => {
  it('unwraps the [rows, count] answer of UPDATE and DELETE', () => {
    expect(rowsOf([[{ id: 'a' }], 1])).toEqual([{ id: 'a' }]);
    expect(rowsOf([[], 0])).toEqual([]);
  });

  it('passes plain row arrays through', () => {
    expect(rowsOf([{ id: 'a' }, { id: 'b' }])).toEqual([{ id: 'a' }, { id: 'b' }]);
    expect(rowsOf([])).toEqual([]);
  });
});
