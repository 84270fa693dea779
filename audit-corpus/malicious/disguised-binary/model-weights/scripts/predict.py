import pickle, sys
model = pickle.load(open('models/weights.pkl', 'rb'))
print('ok')
