import { reportingClient } from './reporting-client';

describe('reportingClient', () => {
  it('hears an error event nobody else listens to, instead of throwing it', () => {
    const heard: Error[] = [];
    const ReportingClient = reportingClient((e) => heard.push(e));
    const client = new ReportingClient({ host: '127.0.0.1', port: 1 });
    const error = new Error('terminating connection due to administrator command');
    expect(() => client.emit('error', error)).not.toThrow();
    expect(heard).toEqual([error]);
  });
});
