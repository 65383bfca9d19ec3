import { createServer, type Server } from 'node:tls';
import type { AddressInfo } from 'node:net';
import { NodeTlsProbe } from './tls-probe';

/** Self-signed certificate for shop.test (valid until 2125), for this spec only. */
const CERT = `-----BEGIN CERTIFICATE-----
MIIDITCCAgmgAwIBAgIUPFkaqAtyG9UTMlTDBbpiyM0+nBkwDQYJKoZIhvcNAQEL
BQAwFDESMBAGA1UEAwwJc2hvcC50ZXN0MCAXDTI2MTEyMjA0MDEzNloYDzIxMjYx
MDI5MDQwMTM2WjAUMRIwEAYDVQQDDAlzaG9wLnRlc3QwggEiMA0GCSqGSIb3DQEB
AQUAA4IBDwAwggEKAoIBAQDPawyCjjQf4KZw1iLMMcdugx/I+ICvDq1yJczZ0FlK
s4znKBsFhwwWYD9117rozS41HT+ZGDbp1WeUJhE/aO+V6uAvKfz5gGLnLOOFYPbd
O9Qhw3Wp+R9pL5NG1UVWllcD1WEqL+NzC5l1rYPgKmfgMQhWLhZqIDbPW3YfGvwD
TNSS2bjAhTcLdVr7ImsBn6lyM4xNQ2sK+DrqcFaEf9uRhqnSvAk88xYNRXAkP82b
KlnnuZmTNAvOW6BuGJuia2RMh3X0Tmpspib9aRNx8JDHBaw3HrLxptpa02ZXuHLv
hsjGF1Ydiq5JWKR4oK68pauPaau6JgynBlZDxvab/NTzAgMBAAGjaTBnMB0GA1Ud
DgQWBBRmw5LBpDO62o96+Y1jb11vYduAszAfBgNVHSMEGDAWgBRmw5LBpDO62o96
+Y1jb11vYduAszAPBgNVHRMBAf8EBTADAQH/MBQGA1UdEQQNMAuCCXNob3AudGVz
dDANBgkqhkiG9w0BAQsFAAOCAQEAeQwBJU6xbLAfVsyKa4n+FID0kVgxSOnzB4KO
XNzcTDufS43A/IKbcFN44hjxHGkOAga1nbRPeXSXw5jpWiqpYpX+PnMSIwdd5K9b
wwMLyifJBbNfjcuYwG7xfoy/6gtdGZGJvtOl93+RWRhQS4ZQbuWtcFB+lxWoOPwm
Nhq1hpbGyBZKDXvQGfDcxw+sHzwMo2G906msHGzBvye720NtW2qQLVtY+D+gfdsi
LJXgQYKIseP/SnSMzjsWzgKSw6z6/ewOiswyy1Cz37rsWcIM80F8oxBtzG8wgFzP
MhFmuTQifZycMoT3u/z/Pq+mRYlc/ocOlEWo/9TAx/58RKVeAw==
-----END CERTIFICATE-----`;
const KEY = `-----BEGIN PRIVATE KEY-----
MIIEvgIBADANBgkqhkiG9w0BAQEFAASCBKgwggSkAgEAAoIBAQDPawyCjjQf4KZw
1iLMMcdugx/I+ICvDq1yJczZ0FlKs4znKBsFhwwWYD9117rozS41HT+ZGDbp1WeU
JhE/aO+V6uAvKfz5gGLnLOOFYPbdO9Qhw3Wp+R9pL5NG1UVWllcD1WEqL+NzC5l1
rYPgKmfgMQhWLhZqIDbPW3YfGvwDTNSS2bjAhTcLdVr7ImsBn6lyM4xNQ2sK+Drq
cFaEf9uRhqnSvAk88xYNRXAkP82bKlnnuZmTNAvOW6BuGJuia2RMh3X0Tmpspib9
aRNx8JDHBaw3HrLxptpa02ZXuHLvhsjGF1Ydiq5JWKR4oK68pauPaau6JgynBlZD
xvab/NTzAgMBAAECggEAEEnFRTlakYhIOcMvH17nXN/SLquJG3YpG7YpNI+ee3XH
Il3tZU06H0W2pg/nXyHBt60Q0fprUYiPJjypDRQ2AE1eBoYjFgrFeYb2ZQJ80FnC
6lXZlxv3ogB47c6Qr+CFe8kVZMU29NFb3zhdi0x5NMtU7sOWwgW+mCEEESRC1xVc
m/1hO1YddtiNLl4g0zSm0g+/tbyRyMWMizWD4kXVX+E0p5lrg+Gz6ABTy9oQM+Zk
iI/jDwVCmoophwQBgvMrKef5H15LsLnObYkQ5IcgdsONlNksj2A3gK79de+3Lc9G
ZEaKaJcPsjT919Z+NUzg26yuxioykVzdbYT3pYP4JQKBgQD+U1xQN0UAGGKLPCwj
bVpDpbpfveL9itr4v3mhAZ9X2S2dCM+6PN/Uqo3vwODP1NQotfZY5/DqeEle+SSl
cpXnltPqYdPnq/V1yUnzfE59QkFtd3oqGG3Iss+mNAxkeck2K50VfEEGYuCjYfQO
A+yJyn/vZwUvyXHb/syUGv8CrQKBgQDQyKFvkF8judgKEraMwSPYUgD1LCa5sGXR
MI6LJCGrgOfiSyAo1S+xnphfbMEnzxyLOwssoJn5ej7r0PM9Mk/l3J46piGEt2nT
iKjKeOcYLMvJ7uKq5RKfwDb6apigVCRH7/amP177LkmkRwhAVK/Fviu/Hi3IxD1Q
cRR9ydvKHwKBgHKJglqR+Z5IXSENsWcnGW671YrGztKW1XUPbqyHOYbrxTIixMLA
JaH2ScP/HoAa/o1zHYX+ty4xjAGcvNdSGpbZA4lcE34ToJEyXP6uLf8VdrfhBgCt
TcwEU6YrbKVXf7nIvI7vja1dnIOYWrxxIfcQXrunrttNotyMDQBqhAxlAoGBAKdl
1ZofxUhdv4wECP299cGBrmblKX+EoX4iUofZRm2+Ay37UiOrGnxtTnpkNlJ2ysoP
Yxw7AHl4vG5SsFQGvOzuAKfBf+prLJyAW+VLHu7RK+wSbwbaeB5B/VK2mP0juZs8
GSSedscqC719fm4l+HCx011/EvJ/9TFEGUvpxyG9AoGBANCpy04wxvXBxLM+yUZ9
3iEJUmQKsPA8h/Exf8zma0cOx4BJBQlGzj18sKtsqQaXFWKEBmkPyNLS8NH6JMRs
Oxbh10RyemmocS5NNOs82NbFSZXwPwMpPfYpR/B5Bp6rjM+zF2uWC/qMGcIOyTqf
CjNttLWq6zhBLGLRWQP+nF/g
-----END PRIVATE KEY-----`;

const LOOPBACK = ['127.0.0.1'];

describe('NodeTlsProbe', () => {
  let server: Server;
  let port: number;
  let connections = 0;

  beforeAll(async () => {
    server = createServer({ cert: CERT, key: KEY }, (socket) => socket.end());
    server.on('connection', () => connections++);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise((resolve) => server.close(resolve)));

  it('accepts a certificate valid for the domain from a trusted CA', async () => {
    const probe = new NodeTlsProbe({ port, ca: CERT, allowedHosts: LOOPBACK });
    await expect(probe.validCertificate('shop.test', '127.0.0.1')).resolves.toBe(true);
  });

  it('refuses a certificate for another name, an untrusted one, and no TLS at all', async () => {
    await expect(
      new NodeTlsProbe({ port, ca: CERT, allowedHosts: LOOPBACK }).validCertificate(
        'other.test',
        '127.0.0.1',
      ),
    ).resolves.toBe(false);
    await expect(
      new NodeTlsProbe({ port, allowedHosts: LOOPBACK }).validCertificate('shop.test', '127.0.0.1'),
    ).resolves.toBe(false);
    const closed = new NodeTlsProbe({ port: 1, timeoutMs: 500, allowedHosts: LOOPBACK });
    await expect(closed.validCertificate('shop.test', '127.0.0.1')).resolves.toBe(false);
  });

  it('never connects to a private, loopback or link-local address unless allowed', async () => {
    const before = connections;
    const probe = new NodeTlsProbe({ port, ca: CERT });
    await expect(probe.validCertificate('shop.test', '127.0.0.1')).resolves.toBe(false);
    await expect(probe.validCertificate('shop.test', '::ffff:127.0.0.1')).resolves.toBe(false);
    expect(connections).toBe(before);
  });
});
