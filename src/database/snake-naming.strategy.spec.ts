import { snakeCase, SnakeNamingStrategy } from './snake-naming.strategy';

describe('SnakeNamingStrategy', () => {
  const strategy = new SnakeNamingStrategy();

  it.each([
    ['trackingNumber', 'tracking_number'],
    ['ShipmentItem', 'shipment_item'],
    ['HTTPStatus', 'http_status'],
    ['daysInTransit2', 'days_in_transit2'],
    ['already_snake', 'already_snake'],
  ])('snakeCase(%s) = %s', (input, expected) => {
    expect(snakeCase(input)).toBe(expected);
  });

  it('names tables and columns in snake_case, keeping explicit names', () => {
    expect(strategy.tableName('EmailNotification', undefined)).toBe('email_notification');
    expect(strategy.tableName('EmailNotification', 'notifications')).toBe('notifications');
    expect(strategy.columnName('createdAt', undefined as unknown as string, [])).toBe('created_at');
    expect(strategy.columnName('createdAt', 'createdOn', [])).toBe('createdOn');
    expect(strategy.columnName('city', undefined as unknown as string, ['shippingAddress'])).toBe(
      'shipping_address_city',
    );
  });

  it('names join columns and join tables in snake_case', () => {
    expect(strategy.joinColumnName('originCarrier', 'id')).toBe('origin_carrier_id');
    expect(strategy.joinTableName('team', 'user', 'members')).toBe('team_members_user');
    expect(strategy.joinTableColumnName('team', 'id')).toBe('team_id');
  });
});
