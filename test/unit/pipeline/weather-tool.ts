/** A tool with a parameter of each JSON type, for the tool-call grammar's tests. */
export const weather = {
  name: 'get_weather',
  parameters: {
    type: 'object',
    properties: {
      city: { type: 'string' },
      unit: { type: 'string', enum: ['celsius', 'fahrenheit'] },
      days: { type: 'integer' },
      hourly: { type: 'boolean' },
      places: {
        type: 'array',
        items: { type: 'object', properties: { lat: { type: 'number' }, lon: { type: 'number' } }, required: ['lat', 'lon'] },
      },
      note: { type: ['string', 'null'] },
    },
    required: ['city', 'unit'],
  },
};
