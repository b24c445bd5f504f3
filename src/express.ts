/** `health-sandbox/express`: the sandbox behind an express 5 app (supertest, or `app.listen`). Node only. */
export { answerHeadErrorsWithJson, createExpressApp, type ExpressAdapterOptions } from './adapters/express.js';
