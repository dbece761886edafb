import { HttpResponse, http } from 'msw';
import { describe, expect, it } from 'vitest';
import { type HttpMethod, InternalServerError } from '../../../src/index';
import { BASE_URL, makeClient, requests, server, useMockApi } from '../../helpers/msw-api';

useMockApi();

/** Answers the first request with a 503 and every later one with 200 `{}`. */
function failOnceThenAnswer(): void {
  let answered = 0;
  server.use(
    http.all(`${BASE_URL}/*`, async ({ request }) => {
      await request.arrayBuffer();
      answered += 1;
      return answered === 1 ? HttpResponse.json({}, { status: 503 }) : HttpResponse.json({});
    }),
  );
}

describe('the replay rule a call takes from its HTTP method', () => {
  it.each<HttpMethod>(['GET', 'PUT', 'DELETE'])('repeats a %s after a 503', async (method) => {
    failOnceThenAnswer();
    await makeClient({ maxRetries: 1 }).request({ method, path: '/anything' });
    expect(requests().map((sent) => sent.method)).toEqual([method, method]);
  });

  it.each<HttpMethod>(['POST', 'PATCH'])(
    'sends a %s once, a 503 ending the call',
    async (method) => {
      failOnceThenAnswer();
      const call = makeClient({ maxRetries: 1 }).request({ method, path: '/anything', body: {} });
      await expect(call).rejects.toBeInstanceOf(InternalServerError);
      expect(requests()).toHaveLength(1);
    },
  );

  it('yields to a replay rule the call states', async () => {
    failOnceThenAnswer();
    await makeClient({ maxRetries: 1 }).request({
      method: 'POST',
      path: '/anything',
      body: {},
      replay: 'always',
    });
    expect(requests()).toHaveLength(2);
  });
});
