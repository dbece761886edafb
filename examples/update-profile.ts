/**
 * Update a seller's profile, with an avatar image read from disk (`users.update`, multipart): the
 * SDK sends nested fields in bracket form and the file with its name and type.
 *
 * Runs against the embedded mock API; against a real service it needs `PARTNER_API_PUBLIC_TOKEN`
 * of a person seller, whose profile it overwrites (see `support/setup.ts`).
 */

import { readFile } from 'node:fs/promises';
import { RequestValidationError, toFile, type UserUpdateParams } from 'partner-sdk';
import { connect, say, step } from './support/setup';

const example = await connect('Update a seller profile with an avatar');
try {
  const { seller } = example;

  step('Read the avatar file');
  const bytes = await readFile(new URL('./assets/avatar.png', import.meta.url));
  const avatar = await toFile(bytes, 'avatar.png', { type: 'image/png' });
  say(`${avatar.name}: ${avatar.size} bytes, ${avatar.type}`);

  step('Send the profile (a person: cpf and birth date)');
  const profile: UserUpdateParams = {
    name: 'Maria Aparecida Souza',
    cpf: '529.982.247-25',
    birth: '1988-04-12',
    nickname: 'Prof. Maria',
    website: 'https://mariasouza.com.br',
    address: {
      zip_code: '01310-100',
      street: 'Avenida Paulista',
      street_number: '1578',
      complement: 'Apto 42',
      neighborhood: 'Bela Vista',
      city: 'São Paulo',
      state: 'SP',
      country: 'Brasil',
      is_default: true,
    },
    phones: [{ ddi: '55', ddd: '11', number: '987654321', type: 'whatsapp' }],
    avatar,
  };
  const user = await seller.users.update(profile);
  say(`${user.name} (${user.code}), ${user.type}, status ${user.status}`);
  say(`avatar now at ${user.avatar}`);
  say(`address: ${user.address?.street}, ${user.address?.street_number}, ${user.address?.city}`);

  step('A phone number with 7 digits is refused before anything is sent');
  try {
    await seller.users.update({
      ...profile,
      phones: [{ ddd: '11', number: '9876543', type: 'mobile' }],
    });
  } catch (error) {
    if (!(error instanceof RequestValidationError)) throw error;
    for (const issue of error.issues) say(`${issue.path.join('.')}: ${issue.message}`);
  }
} finally {
  await example.close();
}
