import { EXAMPLE_ASSISTANT_ID, EXAMPLE_TOOL_ID } from '../common/validation/example-ids';

/** Each placeholder id of the request examples, and the create route whose answer replaces it. */
const CHAINED: Record<string, { route: string; field: string }> = {
  [EXAMPLE_ASSISTANT_ID]: { route: '/assistant/create', field: 'assistant_id' },
  [EXAMPLE_TOOL_ID]: { route: '/tool/create', field: 'tool_id' },
};

/**
 * Swagger UI's request and response interceptors (functions Swagger UI calls in the page, so they
 * are written as source with the table inlined: they run in the browser, not here). Once this
 * page's Execute of `POST /assistant/create` or `POST /tool/create` has answered, the id it answered
 * replaces the examples' placeholder in every later request of the page (URL and body): the
 * default examples of `POST /inbound/assign` and `POST /tool/attach|detach` then name what the
 * user just created instead of answering 404. Nothing else of a request changes.
 */
export function exampleIdInterceptors(): {
  requestInterceptor: (req: unknown) => unknown;
  responseInterceptor: (res: unknown) => unknown;
} {
  const table = JSON.stringify(CHAINED);
  /* eslint-disable @typescript-eslint/no-implied-eval */
  const requestInterceptor = new Function(
    'req',
    `var ids = (window.__exampleIds = window.__exampleIds || {});
     var swap = function (text) {
       Object.keys(ids).forEach(function (p) { text = text.split(p).join(ids[p]); });
       return text;
     };
     if (typeof req.url === 'string') req.url = swap(req.url);
     if (typeof req.body === 'string') req.body = swap(req.body);
     else if (req.body && typeof req.body === 'object' && !(req.body instanceof FormData))
       req.body = JSON.parse(swap(JSON.stringify(req.body)));
     return req;`,
  ) as (req: unknown) => unknown;
  const responseInterceptor = new Function(
    'res',
    `var chained = ${table};
     var ids = (window.__exampleIds = window.__exampleIds || {});
     try {
       var path = new URL(res.url, window.location.href).pathname;
       var data = res.body && res.body.data;
       Object.keys(chained).forEach(function (p) {
         var c = chained[p];
         if (res.status === 200 && path === c.route && data && typeof data[c.field] === 'string')
           ids[p] = data[c.field];
       });
     } catch (e) {}
     return res;`,
  ) as (res: unknown) => unknown;
  /* eslint-enable @typescript-eslint/no-implied-eval */
  return { requestInterceptor, responseInterceptor };
}
