import { HttpResponse, http } from 'msw';

import { db } from '../db';

export const buildHandlers = [http.get('/builds/latest.json', () => HttpResponse.json({ buildId: db.latestBuildId }))];
