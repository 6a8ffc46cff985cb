import { api } from '@/lib/api';

export const uploadPhotoApi = api.injectEndpoints({
  endpoints: (build) => ({
    /** `PUT /api/account/photo`: the image's raw bytes, typed by `Content-Type`. */
    uploadPhoto: build.mutation<{ photoURL: string }, File>({
      // The bytes, not the File: every fetch (browsers, and Node's in the tests) sends an
      // ArrayBuffer as it is, while some do not know another realm's File.
      async queryFn(file, _api, _extraOptions, baseQuery) {
        const bytes = await file.arrayBuffer();
        const result = await baseQuery({
          url: '/api/account/photo',
          method: 'PUT',
          body: bytes,
          headers: { 'Content-Type': file.type },
        });
        return result.error === undefined ? { data: result.data as { photoURL: string } } : { error: result.error };
      },
      extraOptions: { authenticated: true },
      invalidatesTags: ['Settings', 'CurrentUser'],
    }),
  }),
});

export const { useUploadPhotoMutation } = uploadPhotoApi;
