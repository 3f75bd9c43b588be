import { describe, expect, it } from 'vitest';
import { clientNames } from './client-names.js';

describe('client names of a User-Agent', () => {
  it.each([
    [
      'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
      'Chrome',
      'Windows',
    ],
    [
      'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 Edg/131.0.0.0',
      'Edge',
      'Windows',
    ],
    [
      'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_7_1) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Safari/605.1.15',
      'Safari',
      'macOS',
    ],
    [
      'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1',
      'Safari',
      'iOS',
    ],
    [
      'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36',
      'Chrome',
      'Android',
    ],
    ['Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0', 'Firefox', 'Linux'],
    [
      'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 OPR/115.0.0.0',
      'Opera',
      'Linux',
    ],
    ['Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)', 'Bot', 'Other'],
    ['Mozilla/5.0 (Windows NT 10.0; Trident/7.0; rv:11.0) like Gecko', 'Internet Explorer', 'Windows'],
    ['curl/8.5.0', 'curl', 'Other'],
    ['PostmanRuntime/7.42.0', 'Postman', 'Other'],
    ['python-requests/2.32.3', 'Python', 'Other'],
    ['Go-http-client/1.1', 'Go', 'Other'],
    ['okhttp/4.12.0', 'OkHttp', 'Other'],
    ['node', 'Node.js', 'Other'],
    ['something/1.0 (unheard of)', 'Other', 'Other'],
  ])('%s', (userAgent, userAgentName, osName) => {
    expect(clientNames(userAgent)).toEqual({ userAgentName, osName });
    // Asked again: the same answer (from the cache).
    expect(clientNames(userAgent)).toEqual({ userAgentName, osName });
  });

  it('names nothing without a User-Agent', () => {
    expect(clientNames(null)).toEqual({ userAgentName: null, osName: null });
    expect(clientNames('')).toEqual({ userAgentName: null, osName: null });
  });
});
