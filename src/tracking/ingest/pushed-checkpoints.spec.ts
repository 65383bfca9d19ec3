import { BadRequestError } from '../../common/errors/api-errors';
import { parsePushedCheckpoints, PUSH_ID_PREFIX } from './pushed-checkpoints';

describe('parsePushedCheckpoints', () => {
  const valid = {
    id: 'evt-1',
    checkpointDate: '2025-03-01T10:00:00Z',
    status: 'in_transit',
    info: 'Departed',
    location: 'Leipzig hub',
    countryIso2: 'de',
    rel: 'origin',
  };

  it('reads a valid checkpoint into a provider checkpoint in the push namespace', () => {
    const { checkpoints, violations } = parsePushedCheckpoints([valid], 'dhl');
    expect(violations).toEqual([]);
    expect(checkpoints).toEqual([
      {
        externalId: `${PUSH_ID_PREFIX}evt-1`,
        checkpointDate: new Date('2025-03-01T10:00:00Z'),
        status: 'in_transit',
        info: 'Departed',
        location: 'Leipzig hub',
        countryIso2: 'DE',
        carrierCode: 'dhl',
        rel: 'origin',
      },
    ]);
  });

  it('accepts `date` for `checkpointDate`, optional fields absent, and an explicit carrier', () => {
    const { checkpoints, violations } = parsePushedCheckpoints(
      [{ id: ' 7 ', date: '2025-03-02', status: 'delivered', carrier: 'ups' }],
      'dhl',
    );
    expect(violations).toEqual([]);
    expect(checkpoints[0]).toMatchObject({
      externalId: `${PUSH_ID_PREFIX}7`,
      status: 'delivered',
      info: '',
      location: null,
      countryIso2: null,
      carrierCode: 'ups',
      rel: null,
    });
  });

  it('reports every wrong value with its path', () => {
    const { checkpoints, violations } = parsePushedCheckpoints(
      [valid, { id: '', date: 'soon', status: 'lost', countryIso2: 'XX', rel: 'middle' }, {}],
      'dhl',
    );
    expect(checkpoints).toHaveLength(1);
    expect(violations.map((v) => v.propertyPath)).toEqual([
      'checkpoints[1].id',
      'checkpoints[1].date',
      'checkpoints[1].status',
      'checkpoints[1].countryIso2',
      'checkpoints[1].rel',
      'checkpoints[2].id',
      'checkpoints[2].checkpointDate',
      'checkpoints[2].status',
    ]);
  });

  it('refuses an empty list with a violation and wrong JSON types with a 400', () => {
    expect(parsePushedCheckpoints([], 'dhl').violations[0].propertyPath).toBe('checkpoints');
    expect(() => parsePushedCheckpoints({}, 'dhl')).toThrow(BadRequestError);
    expect(() => parsePushedCheckpoints(['x'], 'dhl')).toThrow(BadRequestError);
    expect(() => parsePushedCheckpoints([{ ...valid, status: 3 }], 'dhl')).toThrow(
      'The type of the "checkpoints[0].status" attribute must be "string", "int" given.',
    );
    expect(() =>
      parsePushedCheckpoints(
        Array.from({ length: 501 }, () => valid),
        'dhl',
      ),
    ).toThrow(BadRequestError);
  });
});
